import { expect, test } from 'vitest';
import { readTestId } from './read-test-id.js';

test('reads the header from Fetch and node:http headers', () => {
  expect(readTestId(new Headers({ 'X-Harness-Test-Id': 't-1' }))).toBe('t-1');
  expect(readTestId({ 'x-harness-test-id': 't-2' })).toBe('t-2');
  expect(readTestId({ 'x-harness-test-id': ['t-3', 't-4'] })).toBe('t-3');
});

test('a missing or empty header means default-test', () => {
  expect(readTestId(new Headers())).toBe('default-test');
  expect(readTestId(new Headers({ 'x-harness-test-id': '' }))).toBe('default-test');
  expect(readTestId({})).toBe('default-test');
  expect(readTestId({ 'x-harness-test-id': '' })).toBe('default-test');
});

test('without the header, the W3C baggage member harness-test-id is the test ID', () => {
  expect(readTestId(new Headers({ baggage: 'userId=alice, harness-test-id=t-5;p=1' }))).toBe('t-5');
  expect(readTestId({ baggage: 'harness-test-id=t%206' })).toBe('t 6');
  expect(readTestId({ baggage: ['a=1', 'harness-test-id=t-7'] })).toBe('t-7');
  expect(readTestId(new Headers({ baggage: 'userId=alice' }))).toBe('default-test');
});

test('the header wins over baggage; an empty header defers to baggage', () => {
  expect(readTestId(new Headers({ 'x-harness-test-id': 'from-header', baggage: 'harness-test-id=from-baggage' }))).toBe('from-header');
  expect(readTestId(new Headers({ 'x-harness-test-id': '', baggage: 'harness-test-id=from-baggage' }))).toBe('from-baggage');
});

test('any Headers-like with get() is read as headers: the undici package\'s class, a framework\'s polyfill', async () => {
  const { Headers: UndiciHeaders } = await import('undici');
  expect(new UndiciHeaders() instanceof Headers).toBe(false);
  expect(readTestId(new UndiciHeaders({ 'x-harness-test-id': 'from-undici' }))).toBe('from-undici');
  const polyfill = { get: (name: string) => ({ baggage: 'harness-test-id=from-polyfill' })[name] ?? null };
  expect(readTestId(polyfill)).toBe('from-polyfill');
});
