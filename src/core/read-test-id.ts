import { readBaggageTestId } from './baggage.js';
import { DEFAULT_TEST_ID, TEST_ID_HEADER } from './constants.js';

/** Headers as the Fetch API has them, or as node:http has them. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

function headerOf(headers: HeadersLike, name: string): string | string[] | null | undefined {
  return headers instanceof Headers ? headers.get(name) : headers[name];
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
