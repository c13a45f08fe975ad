import { expect, test } from 'vitest';
import { parsedUrl } from './parsed-url.js';

test('calls to the same URL share one parsed URL; different texts get their own', () => {
  const first = parsedUrl('https://api.parsed.test/v1/a?x=1');
  expect(parsedUrl('https://api.parsed.test/v1/a?x=1')).toBe(first);
  expect(first.href).toBe('https://api.parsed.test/v1/a?x=1');
  const other = parsedUrl('https://API.parsed.test/v1/a?x=1');
  expect(other).not.toBe(first);
  expect(other.href).toBe(first.href);
});

test('text that is not an absolute URL throws as new URL does, and is not kept', () => {
  expect(() => parsedUrl('/relative/path')).toThrow(TypeError);
  expect(() => parsedUrl('/relative/path')).toThrow(TypeError);
});

test('the memory is bounded: after 512 other URLs, a URL is parsed again', () => {
  const kept = parsedUrl('https://bounded.parsed.test/first');
  for (let i = 0; i < 512; i++) parsedUrl(`https://bounded.parsed.test/n/${i}`);
  const again = parsedUrl('https://bounded.parsed.test/first');
  expect(again).not.toBe(kept);
  expect(again.href).toBe(kept.href);
});
