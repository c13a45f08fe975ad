import { DEFAULT_TEST_ID, TEST_ID_HEADER } from './constants.js';

/** Headers as the Fetch API has them, or as node:http has them. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

/**
 * The test ID a request carries, by SPEC §1: the `x-harness-test-id` value when present and
 * non-empty, else `default-test`.
 */
export function readTestId(headers: HeadersLike): string {
  const raw = headers instanceof Headers ? headers.get(TEST_ID_HEADER) : headers[TEST_ID_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value === undefined || value === null || value === '' ? DEFAULT_TEST_ID : value;
}
