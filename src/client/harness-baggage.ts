import { TEST_ID_HEADER } from '../core/constants.js';

/** The W3C header that carries context members across services. */
export const BAGGAGE_HEADER = 'baggage';

/** The `baggage` member that carries the test ID across services (DESIGN, "Test ID across services"). */
export const BAGGAGE_MEMBER = 'harness-test-id';

/**
 * A `baggage` header value that carries `testId` as the `harness-test-id` member, keeping the
 * other members of `existing` (tracing vendors put theirs there too) and replacing an older
 * `harness-test-id`. The value is percent-encoded, as the W3C format asks for anything
 * outside its plain characters.
 *
 * @example
 * withHarnessBaggage('userId=42', 't-1'); // 'userId=42,harness-test-id=t-1'
 * @see https://www.w3.org/TR/baggage/#header-content
 */
export function withHarnessBaggage(existing: string | undefined, testId: string): string {
  const others = (existing ?? '')
    .split(',')
    .map((member) => member.trim())
    .filter((member) => member !== '' && member.split(/[=;]/, 1)[0]!.trim().toLowerCase() !== BAGGAGE_MEMBER);
  return [...others, `${BAGGAGE_MEMBER}=${encodeURIComponent(testId)}`].join(',');
}

/** The headers that make a request run as `testId`: `x-harness-test-id`, and the same in `baggage`. */
export function testIdHeaders(testId: string): Record<string, string> {
  return { [TEST_ID_HEADER]: testId, [BAGGAGE_HEADER]: withHarnessBaggage(undefined, testId) };
}
