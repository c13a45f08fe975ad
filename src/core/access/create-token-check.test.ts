import * as crypto from 'node:crypto';
import { afterEach, expect, test, vi } from 'vitest';
import { createTokenCheck } from './create-token-check.js';

// Observe (not replace) Node's comparison, to see what it is given.
vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});
afterEach(() => vi.mocked(crypto.timingSafeEqual).mockClear());

const TOKEN = 'a3f1c9e27b604d58a3f1c9e27b604d58';
const CANDIDATES = ['', 'a', TOKEN.slice(0, -1), TOKEN, `${TOKEN}0`, `${TOKEN.slice(0, -1)}0`, 'é'.repeat(40), 'x'.repeat(4096)];

test('only the token itself matches; candidates of any length are false, never a throw', () => {
  const matches = createTokenCheck(TOKEN);
  expect(CANDIDATES.map((candidate) => matches(candidate))).toEqual(CANDIDATES.map((candidate) => candidate === TOKEN));
});

test('every candidate, whatever its length, is compared by timingSafeEqual as a 32-byte digest against a 32-byte digest', () => {
  const matches = createTokenCheck(TOKEN);
  for (const candidate of CANDIDATES) matches(candidate);
  const calls = vi.mocked(crypto.timingSafeEqual).mock.calls;
  // One comparison per candidate: no early return on a length difference, which would leak the length.
  expect(calls).toHaveLength(CANDIDATES.length);
  for (const [a, b] of calls) expect([(a as Buffer).byteLength, (b as Buffer).byteLength]).toEqual([32, 32]);
});

test('why digests: timingSafeEqual itself throws on buffers of different lengths', () => {
  const { timingSafeEqual } = crypto;
  expect(() => timingSafeEqual(Buffer.from(TOKEN), Buffer.from(`${TOKEN}0`))).toThrow(RangeError);
});
