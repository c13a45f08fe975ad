import { expect, test } from 'vitest';
import { compileBodyMatch } from './body-match.js';

test('objects match partially and deeply', () => {
  const matcher = compileBodyMatch({ user: { plan: 'gold' } }, 'match.body');
  expect(matcher.test({ user: { plan: 'gold', name: 'Ada' }, extra: 1 })).toBe(true);
  expect(matcher.test({ user: { plan: 'free' } })).toBe(false);
  expect(matcher.test({ user: null })).toBe(false);
  expect(matcher.test('text')).toBe(false);
  expect(matcher.test(undefined)).toBe(false);
});

test('string matchers apply at the leaves', () => {
  const matcher = compileBodyMatch({ email: { endsWith: '@corp.com' }, code: /^A\d+$/, amount: { regex: { source: '^\\d{3}$' } } }, 'match.body');
  expect(matcher.test({ email: 'a@corp.com', code: 'A12', amount: 250 })).toBe(true);
  expect(matcher.test({ email: 'a@home.com', code: 'A12', amount: 250 })).toBe(false);
  expect(matcher.test({ email: 'a@corp.com', code: 'A12', amount: 2500 })).toBe(false);
});

test('arrays match element by element with the same length; other leaves by equality', () => {
  const matcher = compileBodyMatch({ items: [{ sku: 'a' }, 2], ok: true, none: null }, 'match.body');
  expect(matcher.test({ items: [{ sku: 'a', qty: 1 }, 2], ok: true, none: null })).toBe(true);
  expect(matcher.test({ items: [{ sku: 'a' }, 2, 3], ok: true, none: null })).toBe(false);
  expect(matcher.test({ items: [{ sku: 'a' }, 2], ok: 'true', none: null })).toBe(false);
});

test('leaves count criteria for specificity', () => {
  expect(compileBodyMatch({ a: 1, b: { c: 2, d: 3 } }, 'f').leaves).toBe(3);
  expect(compileBodyMatch({}, 'f').leaves).toBe(1);
});

test('inherited keys never satisfy a match', () => {
  const matcher = compileBodyMatch({ constructor: 'x' }, 'match.body');
  expect(matcher.test({})).toBe(false);
  expect(matcher.test(JSON.parse('{"constructor":"x"}'))).toBe(true);
});

test('in form and multipart fields a number or boolean also matches its text, and nothing looser', () => {
  const matcher = compileBodyMatch({ amount: 5000, capture: true, metadata: { order_id: 7 }, items: [{ quantity: 2 }] }, 'match.body');
  const form = { amount: '5000', capture: 'true', metadata: { order_id: '7' }, items: [{ quantity: '2' }] };
  expect(matcher.test(form, true)).toBe(true);
  expect(matcher.test(form)).toBe(false);
  expect(matcher.test({ ...form, amount: '5000.00' }, true)).toBe(false);
  expect(matcher.test({ ...form, amount: '5e3' }, true)).toBe(false);
  expect(matcher.test({ ...form, capture: 'TRUE' }, true)).toBe(false);
  // A string in the definition never matches a number, even in fields.
  expect(compileBodyMatch({ amount: '5000' }, 'match.body').test({ amount: 5000 }, true)).toBe(false);
});
