import { expect, test } from 'vitest';
import { callFromParts } from './outgoing-call.js';

const partsCall = (headers: unknown) => callFromParts({ method: 'GET', url: new URL('https://api.call.test/x'), headers, readBody: async () => undefined });

test.each([
  ['nothing', undefined],
  ['null', null],
  ['an empty list', []],
  ['an empty record', {}],
])('a dispatched call with %s for headers has none', (_label, raw) => {
  const call = partsCall(raw);
  expect(call.header('x-harness-test-id')).toBeNull();
  expect([...call.headers]).toEqual([]);
});

test.each([
  ['a record (values may be lists)', { 'X-Harness-Test-Id': 't-1', accept: ['a', 'b'] }],
  ['a flat list', ['X-Harness-Test-Id', 't-1', 'accept', 'a', 'accept', 'b']],
  ['a list of pairs', [['X-Harness-Test-Id', 't-1'], ['accept', 'a'], ['accept', 'b']]],
  ['a Headers', new Headers([['X-Harness-Test-Id', 't-1'], ['accept', 'a'], ['accept', 'b']])],
])('header() reads %s as Headers.get does', (_label, raw) => {
  const call = partsCall(raw);
  expect(call.header('x-harness-test-id')).toBe('t-1');
  expect(call.header('Accept')).toBe('a, b');
  expect(call.header('missing')).toBeNull();
  expect(Object.fromEntries(call.headers)).toEqual({ accept: 'a, b', 'x-harness-test-id': 't-1' });
});
