import { randomUUID } from 'node:crypto';
import { createHarness, type ScenarioMap } from 'scenario-harness';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';

const API = 'https://api.x.test';

// Parsed from JSON, as definitions loaded from a file are: "__proto__" is then an own key.
const scenarios = JSON.parse(
  JSON.stringify({
    default: {
      name: 'Default',
      mocks: [
        {
          method: 'POST',
          url: `${API}/capture`,
          response: { body: { own: '{{body.__proto__}}', constructor: '{{body.constructor}}', toString: '{{body.toString}}' } },
          afterResponse: { setState: { captured: '{{body}}' } },
        },
        { method: 'POST', url: `${API}/admin`, match: { body: { PROTO: { role: 'admin' } } }, response: { body: 'admin' } },
        { method: 'POST', url: `${API}/admin`, match: { body: { role: 'admin' } }, response: { body: 'role field' } },
        { method: 'POST', url: `${API}/admin`, response: { body: 'not admin' } },
        { method: 'POST', url: `${API}/graphql`, match: { graphql: { variables: { PROTO: { role: 'admin' } } } }, response: { body: 'graphql admin' } },
        { method: 'POST', url: `${API}/graphql`, response: { body: 'graphql other' } },
      ],
    },
  }).replaceAll('PROTO', '__proto__'),
) as ScenarioMap;

const harness = createHarness({ enabled: true, scenarios, unhandled: 'error', logger: { warn: () => {}, error: () => {} } });
const prototypeKeys = Object.getOwnPropertyNames(Object.prototype);
beforeAll(() => harness.start());
afterAll(() => harness.stop());
afterEach(() => {
  expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeKeys);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).role).toBeUndefined();
});

const call = (testId: string, path: string, init: RequestInit) => harness.run(testId, async () => (await fetch(`${API}${path}`, { method: 'POST', ...init })).text());
const form = (text: string): RequestInit => ({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: text });
const multipart = (...fields: [string, string][]): RequestInit => {
  const data = new FormData();
  for (const [name, value] of fields) data.append(name, value);
  return { body: data };
};

test('form fields named __proto__ are dropped; constructor and toString are ordinary fields', async () => {
  const testId = randomUUID();
  const answer = JSON.parse(await call(testId, '/capture', form('__proto__[polluted]=1&a[__proto__][polluted]=1&constructor[prototype][polluted]=1&toString=t&x=1'))) as unknown;
  expect(answer).toEqual({ constructor: { prototype: { polluted: '1' } }, toString: 't' });
  const { captured } = await harness.getState(testId);
  expect(captured).toEqual({ a: {}, constructor: { prototype: { polluted: '1' } }, toString: 't', x: '1' });
  expect(Object.getPrototypeOf(captured)).toBe(Object.prototype);
});

test('multipart fields named __proto__ stay own data', async () => {
  const testId = randomUUID();
  const answer = JSON.parse(await call(testId, '/capture', multipart(['__proto__', 'p'], ['constructor', 'c']))) as unknown;
  expect(answer).toEqual({ own: 'p', constructor: 'c' });
  const { captured } = await harness.getState(testId);
  expect(Object.hasOwn(captured as object, '__proto__')).toBe(true);
});

test('a __proto__ matcher cannot be satisfied through a form, multipart or GraphQL body that reaches a prototype', async () => {
  const testId = randomUUID();
  expect(await call(testId, '/admin', form('__proto__[role]=admin'))).toBe('not admin');
  expect(await call(testId, '/admin', form('role=admin'))).toBe('role field');
  expect(await call(testId, '/admin', multipart(['__proto__', 'x'], ['role', 'user']))).toBe('not admin');
  const graphql = (variables: string) => call(testId, '/graphql', { headers: { 'content-type': 'application/json' }, body: `{"query":"query Q { q }","variables":${variables}}` });
  expect(await graphql('{"__proto__":{"role":"admin"}}')).toBe('graphql admin');
  expect(await graphql('{"role":"admin"}')).toBe('graphql other');
});
