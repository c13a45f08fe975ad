import { expect, test } from 'vitest';
import { boundEntry } from './bound-entry.js';
import type { JournalEntry } from './journal-entry.js';
import { entryKeptBytes, keptBytes, stringBytes } from './kept-bytes.js';

const entry = (more: Partial<JournalEntry> = {}): JournalEntry => ({
  at: '2026-01-01T00:00:00.000Z',
  method: 'POST',
  url: 'https://api.x.test/v1/items',
  requestHeaders: { 'content-type': 'application/json' },
  answered: true,
  durationMs: 1.5,
  ...more,
});

test('keptBytes counts V8 sizes: strings by their width, arrays and objects by their slots, a repeated key once', () => {
  expect(stringBytes('abc')).toBe(24);
  expect(stringBytes('é'.repeat(8))).toBe(24); // Latin-1: one byte a character
  expect(stringBytes('€'.repeat(8))).toBe(32); // two bytes a character
  expect(keptBytes([])).toBe(32);
  expect(keptBytes([[], []])).toBe(32 + 16 + 2 * 8 + 2 * 32);
  expect(keptBytes([{ id: 1 }, { id: 2 }])).toBe(32 + 16 + 2 * 8 + 2 * (24 + 8) + stringBytes('id'));
});

test('an entry under the bound is kept as it is', () => {
  const small = entry({ requestBody: { amount: 5000 } });
  expect(boundEntry(small, () => '{"amount":5000}', 32 * 1024)).toEqual({ entry: small, bytes: entryKeptBytes(small) });
});

test('a parsed body over its room is kept as its text, flagged, and placed after the headers', () => {
  const text = `[${Array.from({ length: 2730 }, () => '[]').join(',')}]`;
  const { entry: kept, bytes } = boundEntry(entry({ requestBody: JSON.parse(text) as unknown }), () => text, 32 * 1024);
  expect(kept.requestBody).toBe(text);
  expect(kept.requestBodyTruncated).toBe(true);
  expect(Object.keys(kept).slice(0, 6)).toEqual(['at', 'method', 'url', 'requestHeaders', 'requestBody', 'requestBodyTruncated']);
  expect(bytes).toBeLessThanOrEqual(32 * 1024);
});

test('a text that does not fit is cut, never inside a surrogate pair', () => {
  const text = '😀'.repeat(4000);
  const { entry: kept, bytes } = boundEntry(entry({ requestBody: text }), () => text, 2048);
  expect(bytes).toBeLessThanOrEqual(2048);
  expect(text.startsWith(kept.requestBody as string)).toBe(true);
  expect((kept.requestBody as string).length % 2).toBe(0);
  expect(kept.requestBodyTruncated).toBe(true);
});

test('huge headers, URL and near misses are cut, and what still does not fit left out, within the bound', () => {
  const requestHeaders = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`x-h-${i}`, 'v'.repeat(5000)]));
  const { entry: kept, bytes } = boundEntry(
    entry({ url: `https://api.x.test/?q=${'a'.repeat(100_000)}`, requestHeaders, requestBody: 'body', nearMisses: Array.from({ length: 50 }, () => 'n'.repeat(2000)) }),
    () => 'body',
    8192,
  );
  expect(bytes).toBeLessThanOrEqual(8192);
  expect(kept.url).toHaveLength(256 + 3);
  expect(kept.url.endsWith('...')).toBe(true);
  expect(Object.values(kept.requestHeaders).every((value) => value === `${'v'.repeat(256)}...`)).toBe(true);
  expect(Object.keys(kept.requestHeaders).length).toBeGreaterThan(0);
  expect(Object.keys(kept.requestHeaders).length).toBeLessThan(200);
  expect(kept.requestBody).toBe('body');
});
