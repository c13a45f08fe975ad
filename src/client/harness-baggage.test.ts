import { expect, test } from 'vitest';
import { testIdHeaders, withHarnessBaggage } from './harness-baggage.js';

test('the test ID becomes the harness-test-id member, percent-encoded', () => {
  expect(withHarnessBaggage(undefined, 't-1')).toBe('harness-test-id=t-1');
  expect(withHarnessBaggage('', 'a b,c;d%')).toBe('harness-test-id=a%20b%2Cc%3Bd%25');
});

test('other members are kept and an older harness-test-id is replaced', () => {
  expect(withHarnessBaggage('userId=42, sessionId=x;ttl=5', 't-1')).toBe('userId=42,sessionId=x;ttl=5,harness-test-id=t-1');
  expect(withHarnessBaggage('harness-test-id=old,userId=42, Harness-Test-Id = older ;p', 't-2')).toBe('userId=42,harness-test-id=t-2');
});

test('testIdHeaders is the header and the baggage', () => {
  expect(testIdHeaders('t-3')).toEqual({ 'x-harness-test-id': 't-3', baggage: 'harness-test-id=t-3' });
});
