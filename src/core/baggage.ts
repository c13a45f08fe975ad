import { BAGGAGE_TEST_ID_KEY } from './constants.js';

/** `%xx` decoded; a value that does not decode is kept as it is (hand-written baggage is forgiven). */
function percentDecode(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The key of one `key=value;prop` list member, trimmed, or `undefined` when it has no `=`. */
function keyOf(member: string): string | undefined {
  const equals = member.indexOf('=');
  return equals === -1 ? undefined : member.slice(0, equals).trim();
}

/**
 * The test ID a W3C `baggage` header carries in its `harness-test-id` member, or `undefined`.
 * Parses the header as the spec writes it: comma-separated members, optional whitespace
 * around `,`, `=` and `;`, properties after `;` ignored, values percent-decoded. The first
 * non-empty `harness-test-id` wins.
 * @see https://www.w3.org/TR/baggage/#header-content
 */
export function readBaggageTestId(baggage: string | readonly string[] | null | undefined): string | undefined {
  if (baggage === null || baggage === undefined) return undefined;
  const text = typeof baggage === 'string' ? baggage : baggage.join(',');
  // Cheap exit for the common case: baggage from a tracer that knows nothing of us.
  if (!text.includes(BAGGAGE_TEST_ID_KEY)) return undefined;
  for (const member of text.split(',')) {
    if (keyOf(member) !== BAGGAGE_TEST_ID_KEY) continue;
    const afterKey = member.slice(member.indexOf('=') + 1);
    const semicolon = afterKey.indexOf(';');
    const value = percentDecode((semicolon === -1 ? afterKey : afterKey.slice(0, semicolon)).trim());
    if (value !== '') return value;
  }
  return undefined;
}

/**
 * A `baggage` header value that carries `testId` as its `harness-test-id` member: the given
 * header's other members are kept as they are, an earlier `harness-test-id` is replaced.
 * For outgoing calls to services that read the test ID from baggage.
 *
 * @example
 * headers.set('baggage', withBaggageTestId(headers.get('baggage'), harness.currentTestId()));
 */
export function withBaggageTestId(baggage: string | null | undefined, testId: string): string {
  const member = `${BAGGAGE_TEST_ID_KEY}=${encodeURIComponent(testId)}`;
  const others = (baggage ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '' && keyOf(item) !== BAGGAGE_TEST_ID_KEY);
  return [member, ...others].join(',');
}
