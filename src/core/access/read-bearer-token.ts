/** Longest `Authorization` value read at all: above it the header is refused unread (nothing is hashed). */
export const MAX_AUTHORIZATION_LENGTH = 4096;

/** Why an `Authorization` header carries no usable bearer token. */
export type BearerProblem = 'missing' | 'empty' | 'too-long' | 'repeated' | 'scheme' | 'no-token';

/**
 * The bearer token of an `Authorization` header value (`null`: no such header), or why there is
 * none. The scheme is case-insensitive (RFC 9110 §11.1): `bearer x` is accepted.
 *
 * @note A header sent twice reaches us as one value joined with ", " (Fetch `Headers`, and
 * node:http through `headersDistinct`); a comma can never be part of a bearer token (RFC 6750
 * `b64token`), so a comma means more than one credential, which is refused as ambiguous.
 * https://www.rfc-editor.org/rfc/rfc6750#section-2.1
 */
export function readBearerToken(value: string | null): { token: string } | { problem: BearerProblem } {
  if (value === null) return { problem: 'missing' };
  if (value.length > MAX_AUTHORIZATION_LENGTH) return { problem: 'too-long' };
  const trimmed = value.trim();
  if (trimmed === '') return { problem: 'empty' };
  if (trimmed.includes(',')) return { problem: 'repeated' };
  const space = trimmed.search(/[ \t]/);
  const scheme = space === -1 ? trimmed : trimmed.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') return { problem: 'scheme' };
  const token = space === -1 ? '' : trimmed.slice(space).trim();
  return token === '' ? { problem: 'no-token' } : { token };
}
