import type { OutgoingCall } from '../interception/outgoing-call.js';
import type { CompiledMock } from './compile-mock.js';
import type { MockIndex } from './mock-index.js';

/**
 * Why the mocks registered for a call's URL did not answer it, one line each, for the
 * unhandled-call message. Runs only for unanswered calls, never on the hot path.
 */
export function describeNearMisses(call: OutgoingCall, layers: readonly MockIndex[]): string[] {
  const lines: string[] = [];
  for (const layer of layers) {
    for (const list of layer.lookup(call.url.origin, call.url.pathname)) {
      for (const mock of list) {
        const reason = missReason(mock, call);
        if (reason !== undefined) lines.push(`${mock.label} (${mock.key}): ${reason}`);
      }
    }
  }
  return lines.slice(0, 5);
}

function missReason(mock: CompiledMock, { url, method }: OutgoingCall): string | undefined {
  if (mock.url.match(url.origin, url.pathname, url.href) === undefined) return undefined;
  if (mock.methods !== undefined && !mock.methods.has(method)) return `method is ${method}, the mock wants ${[...mock.methods].join(' or ')}`;
  if (mock.matches !== undefined) return 'its "match" criteria (body, graphql, query, headers or state) did not hold';
  return 'its sequence is used up (repeat: "none")';
}
