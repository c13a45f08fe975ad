import { expect, test } from 'vitest';
import { graphqlOperationName } from './graphql-operation-name.js';

test('names the single operation, whatever its kind', () => {
  expect(graphqlOperationName('query GetUser($id: ID!) { user(id: $id) { id name } }')).toBe('GetUser');
  expect(graphqlOperationName('mutation AddTodo($text: String!) { addTodo(text: $text) { id } }')).toBe('AddTodo');
  expect(graphqlOperationName('subscription OnComment{commentAdded{id}}')).toBe('OnComment');
  expect(graphqlOperationName('\n  query\n  Viewer\n  @cached(ttl: 60) {\n viewer { login }\n}\n')).toBe('Viewer');
});

test('fragments, comments, strings and nested selections are not operations', () => {
  const document = `
    # query NotThis { x }
    fragment UserFields on User { id name friends(first: 2, where: { note: "query Fake { }" }) { id } }
    query GetUser($id: ID! = "a } b", $filter: Filter = { query: "x", tags: ["mutation"] }) {
      user(id: $id) { ...UserFields description(format: """ block "quoted" \\""" query Z { } """) }
    }
    fragment query on Query { id }
  `;
  expect(graphqlOperationName(document)).toBe('GetUser');
});

test('anonymous operations, several operations, and non-GraphQL text have no name', () => {
  expect(graphqlOperationName('{ viewer { login } }')).toBeUndefined();
  expect(graphqlOperationName('query { viewer { login } }')).toBeUndefined();
  expect(graphqlOperationName('query ($id: ID) { user(id: $id) { id } }')).toBeUndefined();
  expect(graphqlOperationName('query A { a } query B { b }')).toBeUndefined();
  expect(graphqlOperationName('query A { a } { b }')).toBeUndefined();
  expect(graphqlOperationName('fragment F on T { id }')).toBeUndefined();
  expect(graphqlOperationName('')).toBeUndefined();
  expect(graphqlOperationName('search for shoes')).toBeUndefined();
});

test('unbalanced or unterminated input ends without error', () => {
  expect(graphqlOperationName('query Broken { user { id ')).toBe('Broken');
  expect(graphqlOperationName('query Q { a(x: "unterminated')).toBe('Q');
  expect(graphqlOperationName('}}} query Q { a }')).toBe('Q');
  expect(graphqlOperationName('"""never closed')).toBeUndefined();
});

test('a huge document is read in one linear pass', () => {
  const huge = `query Big { ${'field { sub(arg: "x\\"y") } # note\n'.repeat(200_000)} }`;
  const started = performance.now();
  expect(graphqlOperationName(huge)).toBe('Big');
  expect(performance.now() - started).toBeLessThan(2000);
  expect(graphqlOperationName(`${'{'.repeat(100_000)}${'}'.repeat(100_000)}`)).toBeUndefined();
});
