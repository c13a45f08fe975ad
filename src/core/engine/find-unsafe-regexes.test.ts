import { expect, test } from 'vitest';
import type { Mock } from '../types.js';
import { findUnsafeRegexes } from './find-unsafe-regexes.js';

const mock = (overrides: Partial<Mock>): Mock => ({ url: '/x', response: {}, ...overrides });
const fields = (m: Mock) => findUnsafeRegexes(m).map((found) => found.field);

test('finds nested-quantifier patterns in every place a regex can be', () => {
  const evil = { regex: { source: '^(a+)+$' } };
  expect(
    fields(
      mock({
        url: /^https:\/\/api\.x\.test\/(\d+)*$/,
        match: { query: { q: evil, r: /^\s*(\w+\s*)*$/ }, headers: { h: evil }, body: { a: [{ b: evil }], c: /^([a-z]+)+$/ } },
      }),
    ),
  ).toEqual(['url', 'match.query.q.regex', 'match.query.r', 'match.headers.h.regex', 'match.body.a[0].b.regex', 'match.body.c']);
});

test('plain, anchored and named-group patterns pass', () => {
  expect(
    fields(
      mock({
        url: /^https:\/\/api\.x\.test\/users\/(?<id>[^/]+)\/(?<quote>['"])[^'"]*\k<quote>$/,
        match: {
          query: { q: { regex: { source: '^v\\d+\\.\\d+$' } }, p: /premium|vip/i },
          headers: { authorization: /^Bearer\s+\S+$/ },
          body: { email: /^[^@\s]+@[^@\s]+$/, flags: { regex: { source: 'abc', flags: 'gy' } } },
        },
      }),
    ),
  ).toEqual([]);
});

test('the message says why and how to fix it', () => {
  const [found] = findUnsafeRegexes(mock({ match: { query: { q: { regex: { source: '^(a+)+$' } } } } }));
  expect(found?.message).toMatch(/^is the regular expression \/\^\(a\+\)\+\$\/, which can backtrack catastrophically.*Anchor it with \^.*make repeated parts unambiguous/);
});

test('a pattern the detector cannot read is refused, not waved through', () => {
  const [found] = findUnsafeRegexes(mock({ url: new RegExp('[\\p{L}--[a-z]]', 'v') }));
  expect(found?.message).toMatch(/could not be checked for catastrophic backtracking/);
});

test('an invalid serialised pattern is reported with the compiler\'s words, so one pass lists it with the other problems', () => {
  expect(findUnsafeRegexes(mock({ match: { query: { q: { regex: { source: '(' } } } } }))).toEqual([
    { field: 'match.query.q.regex', message: 'is not a valid regular expression (Invalid regular expression: /(/: Unterminated group)' },
  ]);
});
