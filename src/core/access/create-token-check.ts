import { createHash, timingSafeEqual } from 'node:crypto';

function digestOf(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * A check of candidate tokens against `token`, in constant time.
 *
 * @note Both sides are compared as SHA-256 digests, always 32 bytes: `timingSafeEqual` throws on
 * buffers of different lengths, and comparing lengths first would tell an attacker the token's
 * length. Hashing gives every candidate, whatever its length, the same path and the same
 * comparison. https://nodejs.org/api/crypto.html#cryptotimingsafeequala-b
 *
 * @example
 * const matches = createTokenCheck(process.env.HARNESS_TOKEN!);
 * matches(candidate); // true or false, never throws
 */
export function createTokenCheck(token: string): (candidate: string) => boolean {
  const expected = digestOf(token);
  return (candidate) => timingSafeEqual(digestOf(candidate), expected);
}
