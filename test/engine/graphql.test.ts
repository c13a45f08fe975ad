import { createHarness, type ScenarioMap } from 'scenario-harness';
import { expect, test } from 'vitest';
import { json, startHarness } from './with-harness.js';

const GRAPHQL = 'https://api.x.test/graphql';
const GET_USER = 'query GetUser($id: ID!) {\n  user(id: $id) {\n    id\n    name\n    __typename\n  }\n}';
const ADD_TODO = 'mutation AddTodo($input: TodoInput!) { addTodo(input: $input) { id text } }';

const scenarios = {
  default: {
    name: 'GraphQL API',
    mocks: [
      { method: ['GET' as const, 'POST' as const], url: GRAPHQL, match: { graphql: { operationName: 'GetUser' } }, response: { body: { data: { user: { id: 'any', name: 'Someone' } } } } },
      {
        method: 'POST' as const,
        url: GRAPHQL,
        match: { graphql: { operationName: 'GetUser', variables: { id: '1' } } },
        response: { body: { data: { user: { id: '{{body.variables.id}}', name: 'Ada' } } } },
      },
      {
        method: 'GET' as const,
        url: GRAPHQL,
        match: { graphql: { operationName: 'GetUser', variables: { id: '1' } } },
        response: { body: { data: { user: { id: '1', name: 'Ada (GET)', via: '{{query.operationName}}' } } } },
      },
      {
        method: 'POST' as const,
        url: GRAPHQL,
        match: { graphql: { operationName: 'AddTodo', variables: { input: { text: { contains: 'milk' } } } } },
        response: { body: { data: { addTodo: { id: 't1', text: '{{body.variables.input.text}}' } } } },
        afterResponse: { setState: { 'todos[]': '{{body.variables.input.text}}' } },
      },
    ],
  },
};

/** A POST the way graphql-request and Apollo Client's HttpLink send one. */
const post = (body: unknown) =>
  json(GRAPHQL, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' }, body: JSON.stringify(body) });

/** A GET the way Apollo Client (`useGETForQueries`) and urql (`preferGetMethod`) send one. */
const get = (params: Record<string, string>) => json(`${GRAPHQL}?${new URLSearchParams(params)}`, { headers: { accept: 'application/graphql-response+json, application/json' } });

test('a POSTed operation matches by operationName and variables; the most specific mock wins', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    expect((await post({ operationName: 'GetUser', variables: { id: '1' }, query: GET_USER })).body).toEqual({ data: { user: { id: '1', name: 'Ada' } } });
    expect((await post({ operationName: 'GetUser', variables: { id: '2' }, query: GET_USER })).body).toEqual({ data: { user: { id: 'any', name: 'Someone' } } });
    // graphql-request without an operationName: the name comes from the document.
    expect((await post({ query: GET_USER, variables: { id: '1' } })).body).toEqual({ data: { user: { id: '1', name: 'Ada' } } });
  });
});

test('a mutation\'s variables feed templates and setState', async () => {
  const { harness, asTest } = await startHarness(scenarios);
  await asTest(undefined, async (testId) => {
    expect((await post({ operationName: 'AddTodo', variables: { input: { text: 'buy milk', done: false } }, query: ADD_TODO })).body).toEqual({
      data: { addTodo: { id: 't1', text: 'buy milk' } },
    });
    expect(await harness.getState(testId)).toEqual({ todos: ['buy milk'] });
  });
});

test('a GET query string carries the operation the way Apollo and urql send it', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    const apollo = await get({ operationName: 'GetUser', variables: JSON.stringify({ id: '1' }), query: GET_USER, extensions: '{}' });
    expect(apollo.body).toEqual({ data: { user: { id: '1', name: 'Ada (GET)', via: 'GetUser' } } });
    const urql = await get({ query: GET_USER, variables: JSON.stringify({ id: '3' }) });
    expect(urql.body).toEqual({ data: { user: { id: 'any', name: 'Someone' } } });
  });
});

test('a batch matches when any of its operations matches', async () => {
  const { asTest } = await startHarness({
    default: { name: 'Batches', mocks: [{ method: 'POST' as const, url: GRAPHQL, match: { graphql: { operationName: 'AddTodo' } }, response: { body: [{ data: { a: 1 } }, { data: { b: 2 } }] } }] },
  });
  await asTest(undefined, async () => {
    const batch = await post([{ operationName: 'GetUser', variables: { id: '1' }, query: GET_USER }, { operationName: 'AddTodo', variables: { input: { text: 'x' } }, query: ADD_TODO }]);
    expect(batch).toEqual({ status: 200, body: [{ data: { a: 1 } }, { data: { b: 2 } }] });
  });
});

test('an application/graphql body is matched by its document', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    const response = await json(`${GRAPHQL}?variables=${encodeURIComponent('{"id":"9"}')}`, { method: 'POST', headers: { 'content-type': 'application/graphql' }, body: GET_USER });
    expect(response.body).toEqual({ data: { user: { id: 'any', name: 'Someone' } } });
  });
});

test('an operation no mock answers fails clearly with unhandled: "error", naming graphql among the criteria', async () => {
  const { asTest, logs } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    await expect(post({ operationName: 'DeleteUser', variables: { id: '1' }, query: 'mutation DeleteUser($id: ID!) { deleteUser(id: $id) }' })).rejects.toThrow(TypeError);
  });
  expect(logs).toHaveLength(1);
  expect(logs[0]).toContain('No mock answers POST https://api.x.test/graphql');
  expect(logs[0]).toMatch(/GET\|POST https:\/\/api\.x\.test\/graphql \(default#0\): match\.graphql\.operationName: expected .*, received "DeleteUser"/);
});

test('a malformed match.graphql is refused at createHarness with its field path', () => {
  const refuse = (graphql: unknown) => () =>
    createHarness({ enabled: true, scenarios: { default: { name: 'D', mocks: [{ url: GRAPHQL, match: { graphql }, response: {} }] } } as unknown as ScenarioMap });
  expect(refuse({ operationName: 5 })).toThrow('mocks[0].match.graphql.operationName: expected a string, a RegExp, or one of');
  expect(refuse({ variables: [1] })).toThrow('mocks[0].match.graphql.variables: expected an object of variables');
  expect(refuse({ opName: 'GetUser' })).toThrow('mocks[0].match.graphql: unknown key "opName"');
  expect(refuse('GetUser')).toThrow('mocks[0].match.graphql: expected { operationName?, variables? }');
  expect(refuse({ operationName: { regex: { source: '(a+)+$' } } })).toThrow('mocks[0].match.graphql.operationName.regex: is the regular expression /(a+)+$/, which can backtrack catastrophically');
});
