import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** One side's fresh random challenge, as hex: 32 bytes, never used twice. */
export function newNonce(): string {
  return randomBytes(32).toString('hex');
}

/** Which side a proof is from: a proof one side sends can never be replayed as the other's. */
export type ProvingSide = 'host' | 'child';

/**
 * HMAC-SHA256 of both challenges under the tree's secret, labelled with the side that proves:
 * only a process that holds the secret can make it, and it says nothing about the secret. The
 * secret itself never crosses the socket, so a program that took the host's port after the first
 * process exited learns nothing from a child that connects to it.
 */
export function proofOf(secret: string, side: ProvingSide, childNonce: string, hostNonce: string): string {
  return createHmac('sha256', secret).update(`scenario-harness session ${side}\n${childNonce}\n${hostNonce}`).digest('hex');
}

/** Whether `given` is `side`'s proof for these challenges (compared in constant time). */
export function isProofOf(given: string, secret: string, side: ProvingSide, childNonce: string, hostNonce: string): boolean {
  const expected = Buffer.from(proofOf(secret, side, childNonce, hostNonce));
  const bytes = Buffer.from(given);
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}
