import { expect, test } from 'vitest';
import { readBaggageTestId, withBaggageTestId } from './baggage.js';

test.each([
  ['harness-test-id=t-1', 't-1'],
  ['  harness-test-id = t-1  ', 't-1'],
  ['userId=alice,harness-test-id=t-2,isProduction=false', 't-2'],
  ['userId=alice , harness-test-id=t-3;ttl=30;secret , other=x', 't-3'],
  ['harness-test-id=checkout%20flow%2C%20%E2%9C%93', 'checkout flow, ✓'],
  ['harness-test-id=50%off', '50%off'],
  ['harness-test-id=,harness-test-id=t-4', 't-4'],
  ['harness-test-id=t-5,harness-test-id=t-6', 't-5'],
  [['a=1', 'harness-test-id=t-7'], 't-7'],
])('reads the harness-test-id member of %j', (baggage, testId) => {
  expect(readBaggageTestId(baggage)).toBe(testId);
});

test.each([null, undefined, '', 'userId=alice', 'x-harness-test-id=t-1', 'harness-test-idx=t-1', 'harness-test-id', 'harness-test-id=', 'prop=1;harness-test-id=t-1'])(
  'finds no test ID in %j',
  (baggage) => {
    expect(readBaggageTestId(baggage)).toBeUndefined();
  },
);

test('withBaggageTestId puts the test ID first, percent-encoded, and keeps the other members', () => {
  expect(withBaggageTestId(null, 't-1')).toBe('harness-test-id=t-1');
  expect(withBaggageTestId('userId=alice, harness-test-id=old;p=1 ,x=1', 'checkout flow,1')).toBe('harness-test-id=checkout%20flow%2C1,userId=alice,x=1');
  expect(readBaggageTestId(withBaggageTestId('a=1', 'ü;=,'))).toBe('ü;=,');
});
