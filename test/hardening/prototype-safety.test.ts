import { randomUUID } from 'node:crypto';
import { createHarness, isHarnessError, type ScenarioMap } from 'scenario-harness';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';

const API = 'https://api.x.test';
const who = (answer: string) => ({ url: `${API}/who`, response: { body: answer } });

// Parsed from JSON, as definitions loaded from a file are: "__proto__" is then an own key.
const scenarios = JSON.parse(
  JSON.stringify({
    default: {
      name: 'Default',
      mocks: [
        who('default'),
        {
          method: 'POST',
          url: `${API}/capture`,
          response: { body: { own: '{{body.__proto__}}', inherited: '{{body.constructor}}', toString: '{{state.toString}}' } },
          afterResponse: { setState: { PROTO: '{{body.__proto__}}', constructor: '{{body.constructor}}', prototype: 'p', captured: '{{body}}' } },
        },
        { method: 'POST', url: `${API}/admin`, match: { body: { PROTO: { role: 'admin' } } }, response: { body: 'admin' } },
        { method: 'POST', url: `${API}/admin`, response: { body: 'not admin' } },
        { url: `${API}/query`, match: { query: { PROTO: 'yes' }, headers: { PROTO: { equals: 'yes' } } }, response: { body: 'matched' } },
        { url: `${API}/query`, response: { body: 'not matched' } },
        { url: `${API}/state`, match: { state: { PROTO: { deep: true } } }, response: { body: 'state matched' } },
        { url: `${API}/state`, response: { body: 'state not matched' } },
        { url: `${API}/params/:PROTO`, response: { body: { param: '{{params.__proto__}}' } } },
      ],
    },
    PROTO: { name: 'Proto scenario', mocks: [who('proto scenario')], variants: { PROTO: { mocks: [who('proto variant')] } } },
    constructor: { name: 'Constructor scenario', mocks: [who('constructor scenario')] },
    prototype: { name: 'Prototype scenario', mocks: [who('prototype scenario')] },
  }).replaceAll('PROTO', '__proto__'),
) as ScenarioMap;

const harness = createHarness({ enabled: true, scenarios, unhandled: 'error', logger: { warn: () => {}, error: () => {} } });
const prototypeKeys = Object.getOwnPropertyNames(Object.prototype);
beforeAll(() => harness.start());
afterAll(() => harness.stop());
afterEach(() => {
  // Nothing reached Object.prototype, whatever the test did.
  expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeKeys);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).role).toBeUndefined();
});

const control = async (method: string, path: string, testId: string, body?: string) => {
  const response = await harness.handle(new Request(`http://app.test${path}`, { method, body, headers: { 'x-harness-test-id': testId } }));
  return { status: response!.status, body: JSON.parse(await response!.text()) as Record<string, unknown> };
};
const call = (testId: string, path: string, init?: RequestInit) => harness.run(testId, async () => (await fetch(`${API}${path}`, init)).text());
const post = (testId: string, path: string, json: string) => call(testId, path, { method: 'POST', body: json, headers: { 'content-type': 'application/json' } });

test('__proto__, constructor and prototype are ordinary scenario and variant IDs', async () => {
  for (const [scenario, answer] of [['__proto__', 'proto scenario'], ['constructor', 'constructor scenario'], ['prototype', 'prototype scenario']]) {
    const testId = randomUUID();
    expect(await control('POST', '/__scenario__', testId, JSON.stringify({ scenario }))).toEqual({ status: 200, body: { success: true, testId, scenarioId: scenario } });
    expect((await control('GET', '/__scenario__', testId)).body).toMatchObject({ scenarioId: scenario, scenarioName: expect.stringContaining('scenario') });
    expect(await call(testId, '/who')).toBe(answer);
  }
  const testId = randomUUID();
  await control('POST', '/__scenario__', testId, '{"scenario":"__proto__","variant":"__proto__"}');
  expect(await call(testId, '/who')).toBe('proto variant');
  expect((await control('POST', '/__scenario__', testId, '{"scenario":"toString"}')).body).toEqual({ error: "Scenario 'toString' not found. Did you forget to register it?" });
});

test('__proto__, constructor and prototype are ordinary test IDs, isolated from each other', async () => {
  const ids = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty'];
  const choices = ['__proto__', 'constructor', 'prototype', 'default'];
  await Promise.all(ids.map((testId, i) => control('POST', '/__scenario__', testId, JSON.stringify({ scenario: choices[i] }))));
  expect(await Promise.all(ids.map((testId) => call(testId, '/who')))).toEqual(['proto scenario', 'constructor scenario', 'prototype scenario', 'default']);
  expect((await control('GET', '/__harness__/state', '__proto__')).body).toEqual({ testId: '__proto__', state: {} });
  await Promise.all(ids.map((testId) => control('DELETE', '/__scenario__', testId)));
});

test('captured bodies and state keys named __proto__ or constructor stay ordinary data', async () => {
  const testId = randomUUID();
  const answer = await post(testId, '/capture', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"x":1}');
  expect(JSON.parse(answer)).toEqual({ own: { polluted: true }, toString: undefined, inherited: { prototype: { polluted: true } } });

  const { body } = await control('GET', '/__harness__/state', testId);
  const state = body.state as Record<string, unknown>;
  expect(Object.keys(state).sort()).toEqual(['__proto__', 'captured', 'constructor', 'prototype']);
  expect(Object.hasOwn(state, '__proto__') && state['__proto__']).toEqual({ polluted: true });
  expect(Object.hasOwn(state.captured as object, '__proto__')).toBe(true);
  const fromApi = await harness.getState(testId);
  expect(Object.getPrototypeOf(fromApi)).toBe(Object.prototype);
  expect(Object.hasOwn(fromApi, '__proto__')).toBe(true);
});

test('a template path through __proto__ or constructor reads only own data', async () => {
  const answer = JSON.parse(await post(randomUUID(), '/capture', '{"x":1}')) as Record<string, unknown>;
  expect(answer).toEqual({});
  expect(JSON.parse(await call(randomUUID(), '/params/abc'))).toEqual({ param: 'abc' });
});

test('matchers on __proto__ keys match own keys only', async () => {
  const testId = randomUUID();
  expect(await post(testId, '/admin', '{"__proto__":{"role":"admin"}}')).toBe('admin');
  expect(await post(testId, '/admin', '{"role":"admin"}')).toBe('not admin');
  expect(await post(testId, '/admin', '{}')).toBe('not admin');
  expect(await call(testId, '/query?__proto__=yes', { headers: new Headers([['__proto__', 'yes']]) })).toBe('matched');
  expect(await call(testId, '/query?__proto__=yes')).toBe('not matched');
  expect(await call(testId, '/query?constructor=yes', { headers: new Headers([['__proto__', 'yes']]) })).toBe('not matched');
  expect(await call(testId, '/state')).toBe('state not matched');
  await post(testId, '/capture', '{"__proto__":{"deep":true}}');
  expect(await call(testId, '/state')).toBe('state matched');
});

test('a switch body with a __proto__ key cannot smuggle in a variant', async () => {
  const testId = randomUUID();
  const { body } = await control('POST', '/__scenario__', testId, '{"scenario":"__proto__","__proto__":{"variant":"__proto__"}}');
  expect(body).toEqual({ success: true, testId, scenarioId: '__proto__' });
  expect(await call(testId, '/who')).toBe('proto scenario');
  expect((await control('POST', '/__scenario__', testId, '{"__proto__":{"scenario":"__proto__"}}')).status).toBe(400);
});

test('a scenario, variant or matcher named __proto__ is validated like any other, not dropped', () => {
  const bad = (json: string) => {
    try {
      createHarness({ enabled: true, scenarios: JSON.parse(json) as ScenarioMap });
    } catch (error) {
      return isHarnessError(error) ? error.message : String(error);
    }
    return 'accepted';
  };
  expect(bad('{"__proto__":{"name":1,"mocks":[]}}')).toMatch(/scenario "__proto__", name: expected a name/);
  expect(bad('{"a":{"name":"A","mocks":[],"variants":{"__proto__":{"mocks":[{"url":5}]}}}}')).toMatch(/scenario "a", variants\.__proto__\.mocks\[0\]\.url/);
  expect(bad('{"a":{"name":"A","mocks":[{"url":"/x","match":{"query":{"__proto__":5}},"response":{}}]}}')).toMatch(/scenario "a", mocks\[0\]\.match\.query\.__proto__/);
  expect(bad('{"__proto__":{"name":1,"mocks":[]},"b":{"name":"B","mocks":[{"url":5,"response":{}}]}}')).toMatch(/^Invalid scenario definitions/);
});
