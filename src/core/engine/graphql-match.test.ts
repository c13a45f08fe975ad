import { expect, test } from 'vitest';
import { compileGraphqlMatch } from './graphql-match.js';

const JSON_HEADERS = new Headers({ 'content-type': 'application/json' });
const post = (body: unknown) => ({ url: new URL('https://api.x.test/graphql'), headers: JSON_HEADERS, body });

test('matches the operation name (a StringMatch) and variables partially and deeply', () => {
  const matcher = compileGraphqlMatch({ operationName: 'GetUser', variables: { id: '1', filter: { active: true } } }, 'match.graphql');
  expect(matcher.leaves).toBe(3);
  expect(matcher.test(post({ query: 'query GetUser { u }', variables: { id: '1', filter: { active: true, extra: 1 }, more: 2 } }))).toBe(true);
  expect(matcher.test(post({ query: 'query GetUser { u }', variables: { id: '2', filter: { active: true } } }))).toBe(false);
  expect(matcher.test(post({ query: 'query Other { u }', variables: { id: '1', filter: { active: true } } }))).toBe(false);
  expect(matcher.test(post({ query: 'query GetUser { u }' }))).toBe(false);
  expect(compileGraphqlMatch({ operationName: { startsWith: 'Get' } }, 'f').test(post({ query: 'query GetOrders { o }' }))).toBe(true);
});

test('a batch matches when any of its operations does', () => {
  const matcher = compileGraphqlMatch({ operationName: 'B', variables: { n: 2 } }, 'match.graphql');
  expect(matcher.test(post([{ query: 'query A { a }', variables: { n: 2 } }, { query: 'query B { b }', variables: { n: 2 } }]))).toBe(true);
  expect(matcher.test(post([{ query: 'query A { a }', variables: { n: 2 } }, { query: 'query B { b }', variables: { n: 3 } }]))).toBe(false);
});

test('{} matches any GraphQL request and nothing else; an anonymous operation has no name to match', () => {
  const any = compileGraphqlMatch({}, 'match.graphql');
  expect(any.leaves).toBe(1);
  expect(any.test(post({ query: '{ a }' }))).toBe(true);
  expect(any.test(post({ a: 1 }))).toBe(false);
  expect(any.test(post(undefined))).toBe(false);
  expect(compileGraphqlMatch({ operationName: /.*/ }, 'f').test(post({ query: '{ a }' }))).toBe(false);
});

test('the same call is read once however many mocks look at it, and a changed query string is read again', () => {
  const url = new URL('https://api.x.test/graphql?query=query%20A%20%7B%20a%20%7D');
  const request = { url, headers: new Headers(), body: undefined };
  const a = compileGraphqlMatch({ operationName: 'A' }, 'f');
  const b = compileGraphqlMatch({ operationName: 'B' }, 'f');
  expect([a.test(request), b.test(request)]).toEqual([true, false]);
  url.search = '?query=query%20B%20%7B%20b%20%7D';
  expect([a.test(request), b.test(request)]).toEqual([false, true]);
});
