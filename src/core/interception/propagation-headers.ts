import { TEST_ID_HEADER } from '../constants.js';

/** The W3C baggage member that carries the test ID across services. */
export const BAGGAGE_MEMBER = 'harness-test-id';

/**
 * A `baggage` header value with the test ID's member added, keeping the app's own members; an
 * existing `harness-test-id` member is left as it is.
 * @see https://www.w3.org/TR/baggage/
 */
export function baggageWithTestId(existing: string | null | undefined, testId: string): string {
  const member = `${BAGGAGE_MEMBER}=${encodeURIComponent(testId)}`;
  if (existing === null || existing === undefined || existing.trim() === '') return member;
  if (existing.split(',').some((entry) => entry.split('=')[0]!.trim() === BAGGAGE_MEMBER)) return existing;
  return `${existing},${member}`;
}

/**
 * Add the test-ID header and baggage member to a header list read through `get` and written
 * through `set`: the app's own `x-harness-test-id` wins, its other baggage members are kept.
 */
export function addTestIdHeaders(testId: string, get: (name: string) => string | null | undefined, set: (name: string, value: string) => void): void {
  if (get(TEST_ID_HEADER) == null) set(TEST_ID_HEADER, testId);
  set('baggage', baggageWithTestId(get('baggage'), get(TEST_ID_HEADER) ?? testId));
}
