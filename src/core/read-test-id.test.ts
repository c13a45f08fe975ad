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
