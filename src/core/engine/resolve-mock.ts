import type { SessionStore, TestState } from '../store/session-store.js';
import type { CompiledMock, CompiledResponse } from './compile-mock.js';
import type { MockIndex } from './mock-index.js';
import type { OutgoingCall } from '../interception/outgoing-call.js';
import { parseRequestBody, type ParsedBody } from './body/parse-request-body.js';

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
}

interface Candidate {
  mock: CompiledMock;
  params: Readonly<Record<string, string>>;
}

function byPriority(a: Candidate, b: Candidate): number {
  return b.mock.specificity - a.mock.specificity || a.mock.order - b.mock.order;
}

/**
 * Find the mock that answers a call: the first layer with a matching mock wins; inside a
 * layer the most specific match wins, ties to the one defined first; a used-up `'none'`
 * sequence lets the next candidate answer. The body is read only if a candidate needs it.
 */
export async function resolveMock(input: CallInput): Promise<Resolution | undefined> {
  const { call, layers } = input;
  const { url, method } = call;
  const origin = url.origin;
  const pathname = url.pathname;
  let body: ParsedBody | undefined;
  let bodyRead = false;

  for (const layer of layers) {
    const candidates: Candidate[] = [];
    for (const list of layer.lookup(origin, pathname)) {
      for (const mock of list) {
        if (mock.methods !== undefined && !mock.methods.has(method)) continue;
        const params = mock.url.match(origin, pathname, url.href);
        if (params === undefined) continue;
        if (mock.needsBody && !bodyRead) {
          const bytes = await call.bodyBytes();
          body = bytes === undefined ? undefined : await parseRequestBody(call.headers.get('content-type'), bytes);
          bodyRead = true;
        }
        if (mock.matches !== undefined && !mock.matches({ url, headers: call.headers, state: input.state, body: body?.value, bodyFormat: body?.format })) continue;
        candidates.push({ mock, params });
      }
    }
    if (candidates.length > 1) candidates.sort(byPriority);
    for (const { mock, params } of candidates) {
      const index = mock.repeat === undefined ? 0 : await input.store.advanceSequence(input.testId, mock.key, mock.responses.length, mock.repeat);
      if (index === undefined) continue;
      return { mock, response: mock.responses[index]!, params, body: body?.value };
    }
  }
  return undefined;
}
