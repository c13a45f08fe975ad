import { expect, test } from 'vitest';
import { compileStringMatch } from './string-match.js';

test('each StringMatch form does what it says', () => {
  expect(compileStringMatch('a', 'f')('a')).toBe(true);
  expect(compileStringMatch('a', 'f')('ab')).toBe(false);
  expect(compileStringMatch({ equals: 'a' }, 'f')('a')).toBe(true);
  expect(compileStringMatch({ contains: 'b' }, 'f')('abc')).toBe(true);
  expect(compileStringMatch({ startsWith: 'ab' }, 'f')('abc')).toBe(true);
  expect(compileStringMatch({ endsWith: 'bc' }, 'f')('abc')).toBe(true);
  expect(compileStringMatch({ endsWith: 'x' }, 'f')('abc')).toBe(false);
  expect(compileStringMatch({ regex: { source: '^A', flags: 'i' } }, 'f')('abc')).toBe(true);
});

test('a RegExp with g or y flags gives the same answer every time', () => {
  const predicate = compileStringMatch(/b/gy, 'f');
  expect([predicate('b'), predicate('b'), predicate('b')]).toEqual([true, true, true]);
});

test('an invalid serialised regex fails at compile time naming the field', () => {
  expect(() => compileStringMatch({ regex: { source: '(' } }, 'match.query.q')).toThrow(/not a valid regular expression/);
});
