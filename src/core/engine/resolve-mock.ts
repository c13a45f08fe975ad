import type { SessionStore, TestState } from '../store/session-store.js';
import type { CompiledMock, CompiledResponse } from './compile-mock.js';
import type { MockIndex } from './mock-index.js';
import type { OutgoingCall } from '../interception/outgoing-call.js';
import { parseRequestBody, requestBodyText, type ParsedBody } from './body/parse-request-body.js';
import { NOT_NOW } from '../interception/call-outcome.js';
import { urlParts } from './url-parts.js';
import { NO_PARAMS } from './url-pattern.js';

/** One intercepted call, as the resolver sees it. */
export interface CallInput {
  call: OutgoingCall;
  testId: string;
  state: TestState;
  /** Layers in priority order: variant overlay, active scenario, `default`. */
  layers: readonly MockIndex[];
  store: SessionStore;
}

/** The mock that answers, the response it gives, and what its templates read. */
export interface Resolution {
  mock: CompiledMock;
  response: CompiledResponse;
  params: Readonly<Record<string, string>>;
  body: unknown;
  /** The body was read and kept as text because it nests too deep (`ParsedBody.tooDeep`), which the answerer logs. */
  bodyTooDeep?: true;
}

interface Candidate {
  mock: CompiledMock;
  params: Readonly<Record<string, string>>;
}

/** More match keys first; then the more specific URL (`UrlPattern.rank`); then the mock defined first. */
function byPriority(a: Candidate, b: Candidate): number {
  const specificity = b.mock.specificity - a.mock.specificity;
  if (specificity !== 0) return specificity;
  const rankA = a.mock.url.rank;
  const rankB = b.mock.url.rank;
  return rankA === rankB ? a.mock.order - b.mock.order : rankA < rankB ? 1 : -1;
}

/** A layer's candidates need the parsed body, which is not read yet. */
const NEEDS_BODY = Symbol('needs body');
/** The body before anything read it (distinct from a read body that is empty). */
const UNREAD = Symbol('unread');
/** A read body: parsed, and as text (for a top-level string matcher). */
type ReadBody = ParsedBody & { text: string };

/** The mocks of one layer that match the call (method, URL, then `match`), most specific first. */
function candidatesIn(layer: MockIndex, call: OutgoingCall, state: TestState, body: ReadBody | undefined | typeof UNREAD): Candidate[] | typeof NEEDS_BODY {
  const { url, method } = call;
  const parts = urlParts(url);
  const candidates: Candidate[] = [];
  for (const list of layer.lookup(parts)) {
    for (const mock of list) {
      if (mock.methods !== undefined && !mock.methods.has(method)) continue;
      // A mock with a full static URL is listed only under its own origin + path: the lookup matched it already.
      const pattern = mock.url;
      const params = pattern.origin !== undefined && pattern.staticPath !== undefined ? NO_PARAMS : pattern.match(parts.origin, parts.pathname, parts.href);
      if (params === undefined) continue;
      if (mock.needsBody && body === UNREAD) return NEEDS_BODY;
      const parsed = body === UNREAD ? undefined : body;
      if (mock.matches !== undefined && !mock.matches({ url, headers: call.headers, state, body: parsed?.value, bodyFormat: parsed?.format, bodyText: parsed?.text })) continue;
      candidates.push({ mock, params });
    }
  }
  if (candidates.length > 1) candidates.sort(byPriority);
  return candidates;
}

async function readParsedBody(call: OutgoingCall): Promise<ReadBody | undefined> {
  const bytes = await call.bodyBytes();
  if (bytes === undefined) return undefined;
  const contentType = call.headers.get('content-type');
  const parsed = await parseRequestBody(contentType, bytes);
  return parsed === undefined ? undefined : { ...parsed, text: requestBodyText(contentType, bytes) };
}

/**
 * Find the mock that answers a call: the first layer with a matching mock wins; inside a
 * layer the most specific match wins (match keys, then URL), ties to the one defined first; a used-up `'none'`
 * sequence lets the next candidate answer. The body is read only if a candidate needs it.
 */
export async function resolveMock(input: CallInput): Promise<Resolution | undefined> {
  const { call } = input;
  let body: ReadBody | undefined | typeof UNREAD = UNREAD;
  for (const layer of input.layers) {
    let candidates = candidatesIn(layer, call, input.state, body);
    if (candidates === NEEDS_BODY) {
      body = await readParsedBody(call);
      candidates = candidatesIn(layer, call, input.state, body) as Candidate[];
    }
    for (const { mock, params } of candidates) {
      const index = mock.repeat === undefined ? 0 : await input.store.advanceSequence(input.testId, mock.key, mock.responses.length, mock.repeat);
      if (index === undefined) continue;
      const read = body === UNREAD ? undefined : body;
      return { mock, response: mock.responses[index]!, params, body: read?.value, ...(read?.tooDeep === true ? { bodyTooDeep: true } : {}) };
    }
  }
  return undefined;
}

/**
 * `resolveMock` without awaiting: the same answer when no candidate needs the body and the
 * winner is no sequence; `NOT_NOW` otherwise (the asynchronous path then decides).
 */
export function resolveMockNow(call: OutgoingCall, layers: readonly MockIndex[], state: TestState): Resolution | undefined | typeof NOT_NOW {
  for (const layer of layers) {
    const candidates = candidatesIn(layer, call, state, UNREAD);
    if (candidates === NEEDS_BODY) return NOT_NOW;
    const winner = candidates[0];
    if (winner === undefined) continue;
    if (winner.mock.repeat !== undefined) return NOT_NOW;
    return { mock: winner.mock, response: winner.mock.responses[0]!, params: winner.params, body: undefined };
  }
  return undefined;
}
