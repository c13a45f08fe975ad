import { readBaggageTestId } from './baggage.js';
import { DEFAULT_TEST_ID, TEST_ID_HEADER } from './constants.js';
import { quote, type Logger } from './dev-utils.js';

/** Anything with the Fetch API's `get(name)`: the global `Headers`, the `undici` package's, a framework's polyfill. */
export interface HeadersGetter {
  get(name: string): string | null | undefined;
}

/** Headers as the Fetch API has them (any class with `get()`), or as node:http has them. */
export type HeadersLike = Headers | HeadersGetter | Record<string, string | string[] | undefined>;

function headerOf(headers: HeadersLike, name: string): string | string[] | null | undefined {
  // @note By shape, not `instanceof Headers`: the undici package's Headers, or a framework's
  // polyfill, is another class, and read as a record it would have no header at all.
  if (typeof (headers as HeadersGetter).get === 'function') return (headers as HeadersGetter).get(name);
  return (headers as Record<string, string | string[] | undefined>)[name];
}

/**
 * The test ID a request carries, by SPEC §1: the `x-harness-test-id` value when present and
 * non-empty; else the W3C `baggage` member `harness-test-id` (how the ID crosses services
 * that forward trace context but not our header); else `default-test`.
 */
export function readTestId(headers: HeadersLike): string {
  const raw = headerOf(headers, TEST_ID_HEADER);
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value !== undefined && value !== null && value !== '') return value;
  return readBaggageTestId(headerOf(headers, 'baggage')) ?? DEFAULT_TEST_ID;
}

/**
 * `harness.testIdFrom`: SPEC's test-ID rules plus the length limit. An over-long ID counts as
 * no ID (`default-test`), and the log says so once.
 */
export function createTestIdReader(maxLength: number, logger: Logger): (headers: HeadersLike) => string {
  let warned = false;
  return (headers) => {
    const testId = readTestId(headers);
    if (testId.length <= maxLength) return testId;
    if (!warned) {
      warned = true;
      logger.warn(
        `A request carried a ${TEST_ID_HEADER} header of ${testId.length} characters, over the limit of ${maxLength} (limits.maxTestIdLength), so it runs as ${quote(DEFAULT_TEST_ID)}. Use shorter test IDs, such as UUIDs (logged once).`,
      );
    }
    return DEFAULT_TEST_ID;
  };
}
