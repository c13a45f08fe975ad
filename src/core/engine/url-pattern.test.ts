import { expect, test } from 'vitest';
import { DefinitionError } from './definition-error.js';
import { compileUrlPattern } from './url-pattern.js';

const at = (pattern: Parameters<typeof compileUrlPattern>[0], url: string) => {
  const { origin, pathname, href } = new URL(url);
  return compileUrlPattern(pattern).match(origin, pathname, href);
};

test('a static absolute URL matches its origin and path only, trailing slash or not', () => {
  expect(at('https://api.x.com/users', 'https://api.x.com/users')).toEqual({});
  expect(at('https://api.x.com/users', 'https://api.x.com/users/')).toEqual({});
  expect(at('https://api.x.com/users', 'https://api.x.com/users?page=2')).toEqual({});
  expect(at('https://api.x.com/users', 'https://api.y.com/users')).toBeUndefined();
  expect(at('https://api.x.com/users', 'http://api.x.com/users')).toBeUndefined();
  expect(at('https://API.x.com/users', 'https://api.x.com/users')).toEqual({});
});

test('params capture one decoded segment each', () => {
  expect(at('https://api.x.com/users/:id/orders/:orderId', 'https://api.x.com/users/42/orders/a%20b')).toEqual({ id: '42', orderId: 'a b' });
  expect(at('https://api.x.com/users/:id', 'https://api.x.com/users/42/orders')).toBeUndefined();
});

test('a path-only pattern matches every origin', () => {
  expect(at('/v1/charges', 'https://a.com/v1/charges')).toEqual({});
  expect(at('/v1/charges', 'http://127.0.0.1:9/v1/charges')).toEqual({});
  expect(at('/v1/charges', 'https://a.com/api/v1/charges')).toBeUndefined();
});

test('globs match anything, slashes included', () => {
  expect(at('*/v1/charges', 'https://a.com/api/v1/charges')).toEqual({});
  expect(at('https://api.x.com/*', 'https://api.x.com/a/b/c')).toEqual({});
  expect(at('https://*.x.com/users', 'https://eu.x.com/users')).toEqual({});
  expect(at('https://api.x.com/*', 'https://api.y.com/a')).toBeUndefined();
});

test('a RegExp is tested against the whole URL, named groups become params, and g/y keep no state', () => {
  const pattern = /users\/(?<id>\d+)$/g;
  expect(at(pattern, 'https://a.com/users/7')).toEqual({ id: '7' });
  expect(at(pattern, 'https://a.com/users/7')).toEqual({ id: '7' });
  expect(at(/nope/, 'https://a.com/users/7')).toBeUndefined();
});

test('a RegExp written as data ({ regex: { source, flags } }) matches like the RegExp itself', () => {
  const pattern = { regex: { source: 'users/(?<id>\\d+)$', flags: 'gi' } };
  expect(at(pattern, 'https://a.com/USERS/7')).toEqual({ id: '7' });
  expect(at(pattern, 'https://a.com/USERS/7')).toEqual({ id: '7' });
  expect(at({ regex: { source: '^https://a\\.com/' } }, 'https://a.com/x')).toEqual({});
  expect(at({ regex: { source: '^https://a\\.com/' } }, 'https://b.com/x')).toBeUndefined();
  expect(() => compileUrlPattern({ regex: { source: '(' } })).toThrow(DefinitionError);
  expect(() => compileUrlPattern({ regex: { source: '(' } })).toThrow(/is not a valid regular expression/);
});

test('invalid patterns fail at compile time with what to do', () => {
  expect(() => compileUrlPattern('api.x.com/users')).toThrow(DefinitionError);
  expect(() => compileUrlPattern('api.x.com/users')).toThrow(/absolute http\(s\) URL/);
  expect(() => compileUrlPattern('https://api.x.com/users?page=1')).toThrow(/match\.query/);
  expect(() => compileUrlPattern('https://api.x.com/:id/:id')).toThrow(/":id" twice/);
  expect(() => compileUrlPattern('ftp://x.com/a')).toThrow(DefinitionError);
});

test('rank orders patterns as routers do: segment by segment from the left, literal over :param over *, then the origin', () => {
  // Most specific first. Every pair here can match one same URL, so the order decides real calls.
  const ranked = [
    'https://api.x.com/movie/popular',
    '/movie/popular',
    'https://api.x.com/movie/:id.json',
    'https://api.x.com/movie/:id',
    'https://*.x.com/movie/:id',
    '/movie/:id',
    'https://api.x.com/movie',
    'https://api.x.com/movie/*/credits',
    'https://api.x.com/movie/*',
    '*/movie/popular', // after the same first segment (*), its written ones beat the path's end
    'https://api.x.com/*',
    '*',
  ];
  const shuffled = [...ranked].reverse();
  const byRank = shuffled.sort((a, b) => (compileUrlPattern(b).rank < compileUrlPattern(a).rank ? -1 : compileUrlPattern(b).rank > compileUrlPattern(a).rank ? 1 : 0));
  expect(byRank).toEqual(ranked);
  // The same pattern with other param names, or a trailing slash, ranks the same.
  expect(compileUrlPattern('/movie/:name/').rank).toBe(compileUrlPattern('/movie/:id').rank);
});

test('a RegExp ranks below a pattern that writes out its first path segment and above one that starts with a bare *', () => {
  const regex = compileUrlPattern(/\/movie\/\d+$/).rank;
  expect(regex).toBe(compileUrlPattern({ regex: { source: '.' } }).rank);
  expect(regex < compileUrlPattern('/:anything/*').rank).toBe(true);
  expect(regex < compileUrlPattern('https://*.x.com/movie/*').rank).toBe(true);
  expect(regex > compileUrlPattern('https://api.x.com/*').rank).toBe(true);
  expect(regex > compileUrlPattern('*/movie/popular').rank).toBe(true);
});
