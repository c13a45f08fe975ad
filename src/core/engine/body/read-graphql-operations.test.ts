import { expect, test } from 'vitest';
import { readGraphqlOperations } from './read-graphql-operations.js';

const read = (url: string, body: unknown, contentType = 'application/json') =>
  readGraphqlOperations({ url: new URL(url), headers: new Headers({ 'content-type': contentType }), body });

test('a JSON body names its operation, or the query does', () => {
  expect(read('https://api.x.test/graphql', { query: 'query GetUser { u }', operationName: 'GetUser', variables: { id: '1' } })).toEqual([
    { operationName: 'GetUser', variables: { id: '1' } },
  ]);
  expect(read('https://api.x.test/graphql', { query: 'query GetUser { u }' })).toEqual([{ operationName: 'GetUser', variables: {} }]);
  expect(read('https://api.x.test/graphql', { query: 'query GetUser { u }', operationName: null, variables: null })).toEqual([{ operationName: 'GetUser', variables: {} }]);
  // Persisted queries send no document.
  expect(read('https://api.x.test/graphql', { operationName: 'GetUser', extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } })).toEqual([
    { operationName: 'GetUser', variables: {} },
  ]);
});

test('a batch is every operation in it', () => {
  expect(read('https://api.x.test/graphql', [{ query: 'query A { a }' }, 'junk', { query: '{ b }', variables: { x: 1 } }])).toEqual([
    { operationName: 'A', variables: {} },
    { operationName: undefined, variables: { x: 1 } },
  ]);
});

test('GET query strings carry query, operationName and JSON variables', () => {
  const url = `https://api.x.test/graphql?query=${encodeURIComponent('query GetUser($id: ID!) { user(id: $id) { id } }')}&variables=${encodeURIComponent('{"id":"7"}')}`;
  expect(read(url, undefined)).toEqual([{ operationName: 'GetUser', variables: { id: '7' } }]);
  expect(read('https://api.x.test/graphql?operationName=Q&extensions=%7B%7D', undefined)).toEqual([{ operationName: 'Q', variables: {} }]);
  expect(read('https://api.x.test/graphql?query=%7Ba%7D&variables=not-json', undefined)).toEqual([{ operationName: undefined, variables: 'not-json' }]);
});

test('an application/graphql body is the document itself', () => {
  expect(read('https://api.x.test/graphql?variables=%7B%22a%22%3A1%7D', 'mutation Save { save }', 'application/graphql; charset=utf-8')).toEqual([
    { operationName: 'Save', variables: { a: 1 } },
  ]);
});

test('anything else carries no operation', () => {
  expect(read('https://api.x.test/graphql', { data: 1 })).toEqual([]);
  expect(read('https://api.x.test/graphql', 'query Q { a }', 'text/plain')).toEqual([]);
  expect(read('https://api.x.test/search?q=shoes', undefined)).toEqual([]);
  expect(read('https://api.x.test/graphql', 42)).toEqual([]);
});
