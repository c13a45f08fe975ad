import { editDistance } from '../did-you-mean.js';
import type { OutgoingCall } from '../interception/outgoing-call.js';
import type { TestState } from '../store/session-store.js';
import { parseRequestBody, requestBodyText } from './body/parse-request-body.js';
import type { CompiledMock } from './compile-mock.js';
import type { MockIndex } from './mock-index.js';
import { urlParts } from './url-parts.js';

/** At most this many lines: the nearest mocks, not a dump of the scenario. */
const MAX_LINES = 5;
const MAX_CLOSEST_URLS = 3;

/** `GET https://api.x.com/users/:id (default#2, id "get-user")`: a mock as near-miss lines name it. */
export function mockName(mock: CompiledMock): string {
  return `${mock.label} (${mock.key}${mock.id === undefined ? '' : `, id ${JSON.stringify(mock.id)}`})`;
}

/**
 * Why the mocks of a call's layers did not answer it, one line each: for every mock whose URL
 * matches, the first criterion that failed with what it expected and what the call sent
 * (`method: expected POST, received GET`, `match.body.amount: expected 5000, received 4000`,
 * `match.query.page: missing (expected "2")`); when no mock has the call's URL, the closest
 * mock URLs. Runs only for calls nothing answered (or when asked), never on the hot path.
 */
export async function describeNearMisses(call: OutgoingCall, layers: readonly MockIndex[], state: TestState): Promise<string[]> {
  const { url, method } = call;
  const sameUrl: CompiledMock[] = [];
  const parts = urlParts(url);
  for (const layer of layers) {
    for (const list of layer.lookup(parts)) {
      for (const mock of list) if (mock.url.match(parts.origin, parts.pathname, parts.href) !== undefined) sameUrl.push(mock);
    }
  }
  if (sameUrl.length === 0) return closestUrls(call, layers);

  const needsBody = sameUrl.some((mock) => mock.needsBody && (mock.methods === undefined || mock.methods.has(method)));
  const bytes = needsBody ? await call.bodyBytes() : undefined;
  const parsed = bytes === undefined ? undefined : await parseRequestBody(call.headers.get('content-type'), bytes).catch(() => undefined);
  const input = { url, headers: call.headers, state, body: parsed?.value, bodyFormat: parsed?.format, bodyText: bytes === undefined ? undefined : requestBodyText(call.headers.get('content-type'), bytes) };

  const lines: string[] = [];
  for (const mock of sameUrl.sort((a, b) => a.order - b.order)) {
    let reason: string;
    if (mock.methods !== undefined && !mock.methods.has(method)) reason = `method: expected ${[...mock.methods].join(' or ')}, received ${method}`;
    else reason = mock.explainMiss(input) ?? (mock.repeat === 'none' ? 'its sequence is used up (repeat: "none")' : 'it matches: it was not asked (another layer answered first)');
    lines.push(`${mockName(mock)}: ${reason}`);
    if (lines.length === MAX_LINES) break;
  }
  return lines;
}

/** The mock URLs nearest to the call's: same origin first, then the fewest edits between paths. */
function closestUrls({ url, method }: OutgoingCall, layers: readonly MockIndex[]): string[] {
  const target = `${url.origin}${url.pathname}`;
  const ranked: { mock: CompiledMock; score: number }[] = [];
  const seen = new Set<string>();
  for (const layer of layers) {
    for (const mock of layer.all) {
      if (seen.has(mock.key)) continue;
      seen.add(mock.key);
      const pattern = mock.label.slice(mock.label.indexOf(' ') + 1);
      const sameOrigin = mock.url.origin === undefined || mock.url.origin === url.origin;
      const methodPenalty = mock.methods === undefined || mock.methods.has(method) ? 0 : 5;
      const path = sameOrigin && mock.url.origin !== undefined ? pattern.slice(mock.url.origin.length) : pattern;
      ranked.push({ mock, score: (sameOrigin ? 0 : 1000) + methodPenalty + editDistance(sameOrigin ? url.pathname : target, path.slice(0, 300)) });
    }
  }
  if (ranked.length === 0) return ['no mock in this scenario or in "default"'];
  ranked.sort((a, b) => a.score - b.score || a.mock.order - b.mock.order);
  return [`no mock has this URL; the closest: ${ranked.slice(0, MAX_CLOSEST_URLS).map(({ mock }) => mockName(mock)).join('; ')}`];
}
