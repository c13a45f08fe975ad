import { expect, test } from 'vitest';
import { callFromParts } from './outgoing-call.js';

/** What a reader of `headerEntries()` makes of its pairs: joined by name and sorted, as Headers does. */
const joined = (entries: Iterable<[string, string]>) => {
  const headers = new Headers();
  for (const [name, value] of entries) headers.append(name, value);
  return [...headers];
};

const partsCall = (headers: unknown) => callFromParts({ method: 'GET', url: new URL('https://api.call.test/x'), headers, readBody: async () => undefined });

test.each([
  ['nothing', undefined],
  ['null', null],
  ['an empty list', []],
  ['an empty record', {}],
])('a dispatched call with %s for headers has none', (_label, raw) => {
  const call = partsCall(raw);
  expect(call.header('x-harness-test-id')).toBeNull();
  expect([...call.headerEntries()]).toEqual([]);
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
  expect(joined(call.headerEntries())).toEqual([['accept', 'a, b'], ['x-harness-test-id', 't-1']]);
  expect(Object.fromEntries(call.headers)).toEqual({ accept: 'a, b', 'x-harness-test-id': 't-1' });
});

test('a record read in place gives what Headers gives: names in any case merged, edge whitespace trimmed, cookies apart, nulls skipped', () => {
  const raw = { Accept: 'a', accept: [' b\t'], 'Set-Cookie': ['x=1', 'y=2'], 'X-Empty': null, 'x-harness-test-id': ' t-2 ' };
  const call = partsCall(raw);
  const expected = new Headers();
  for (const [name, value] of [['Accept', 'a'], ['accept', ' b\t'], ['Set-Cookie', 'x=1'], ['Set-Cookie', 'y=2'], ['x-harness-test-id', ' t-2 ']]) expected.append(name!, value!);
  expect(call.header('ACCEPT')).toBe(expected.get('accept'));
  expect(call.header('x-harness-test-id')).toBe('t-2');
  expect(call.header('x-empty')).toBeNull();
  expect(joined(call.headerEntries())).toEqual([...expected]);
  // In the order sent, not sorted: the journal sorts when it is read.
  expect([...partsCall({ 'X-B': '1', 'x-a': '2', 'x-c': ['3', '4'] }).headerEntries()]).toEqual([['x-b', '1'], ['x-a', '2'], ['x-c', '3'], ['x-c', '4']]);
  expect([...call.headers]).toEqual([...expected]);
});

test('the body is read from what the layer got, once', async () => {
  let reads = 0;
  const call = callFromParts({ method: 'POST', url: new URL('https://api.call.test/x'), headers: [], body: 'a=1', readBody: async (body) => (reads++, Buffer.from(String(body))) });
  expect(call.bodyConsumed).toBe(false);
  const [first, second] = await Promise.all([call.bodyBytes(), call.bodyBytes()]);
  expect(Buffer.from(first!).toString()).toBe('a=1');
  expect(second).toBe(first);
  expect([reads, call.bodyConsumed]).toEqual([1, true]);
});
