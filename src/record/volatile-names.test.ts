import { expect, test } from 'vitest';
import { volatileRules } from './volatile-names.js';
import { isSecretKey, isSecretQueryParam } from './secret-names.js';

const rules = volatileRules({ query: ['session_seed'], body: ['attempt'], responseHeaders: ['x-served-at'] });

test.each([
  ['_', '1718877602000', true],
  ['X-Amz-Signature', 'abc', true],
  ['cachebuster', 'x', true],
  ['random', 'abc', true],
  ['t', '1718877602', true],
  ['v', '1718877602000', true],
  ['start_time', '2024-06-20T10:00:00Z', true],
  ['_r', '3f2a9c1e1b2c4d5e8f90', true],
  ['session_seed', 'anything', true],
  ['since', '1700000000', false],
  ['id', '3f2a9c1e-1b2c-4d5e-8f90-a1b2c3d4e5f6', false],
  ['brand', 'nike', false],
  ['date', '2024-06-20', false],
  ['page', '2', false],
])('query %s=%s is volatile: %s', (name, value, volatile) => {
  expect(rules.query(name, value)).toBe(volatile);
});

test('body keys and response headers: the lists, the extras, the per-call ID heuristic', () => {
  expect([rules.bodyKey('idempotency_key', 'k'), rules.bodyKey('attempt', 2), rules.bodyKey('amount', 1718877602)]).toEqual([true, true, false]);
  expect(['Date', 'x-served-at', 'X-Kong-Request-Id', 'x-b3-traceid', 'content-type', 'x-ratelimit-limit'].map(rules.responseHeader)).toEqual([true, true, true, true, false, false]);
});

test.each([
  ['client_secret', true], ['accessToken', true], ['X-Api-Key', true], ['db-password', true], ['cvc', true], ['sessionId', true],
  ['total_tokens', false], ['next_page_token', false], ['NextToken', false], ['token_type', false], ['key', false], ['secretary', false],
])('JSON key %s is secret: %s', (name, secret) => {
  expect(isSecretKey(name)).toBe(secret);
});

test('query names add key, sig, code and the presigned credentials', () => {
  expect(['key', 'sig', 'code', 'X-Amz-Credential', 'X-Amz-Security-Token', 'api_key', 'page'].map((name) => isSecretQueryParam(name))).toEqual([true, true, true, true, true, true, false]);
});
