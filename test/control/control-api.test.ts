import { randomUUID } from 'node:crypto';
import { createHarness, type Harness, type Logger } from 'scenario-harness';
import { beforeEach, expect, test } from 'vitest';

const scenarios = {
  default: { name: 'Default', mocks: [{ url: 'https://api.x.test/v', afterResponse: { setState: { seen: true } }, response: { body: { v: 'default' } } }] },
  premium: { name: 'Premium user', mocks: [], variants: { gold: { mocks: [] } } },
  declined: { name: 'Declined', mocks: [] },
};

let harness: Harness<typeof scenarios>;
let logged: string[];
beforeEach(() => {
  logged = [];
  const logger: Logger = { warn: (m) => logged.push(m), error: (m) => logged.push(m) };
  harness = createHarness({ enabled: true, scenarios, logger });
});

const call = async (method: string, path: string, { testId, body }: { testId?: string; body?: string } = {}) => {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (testId !== undefined) headers['x-harness-test-id'] = testId;
  const response = await harness.handle(new Request(`http://app.test${path}`, { method, headers, body }));
  if (response === null) return { status: 0, body: null };
  return { status: response.status, contentType: response.headers.get('content-type'), body: (await response.json()) as Record<string, unknown> };
};
const post = (body: string, testId?: string) => call('POST', '/__scenario__', { testId, body });

test('a switch answers 200 with the test ID and scenario, and variant only when supplied', async () => {
  const testId = randomUUID();
  expect(await post('{"scenario":"premium"}', testId)).toMatchObject({ status: 200, body: { success: true, testId, scenarioId: 'premium' } });
  expect((await post('{"scenario":"premium"}', testId)).body).not.toHaveProperty('variant');
  expect((await post('{"scenario":"premium","variant":"gold"}', testId)).body).toEqual({ success: true, testId, scenarioId: 'premium', variant: 'gold' });
});

test('GET returns the active scenario with its name and variant, or 404 naming the test ID', async () => {
  const testId = randomUUID();
  expect(await call('GET', '/__scenario__', { testId })).toMatchObject({ status: 404, body: { error: 'No active scenario for this test ID', testId } });
  await post('{"scenario":"premium","variant":"gold"}', testId);
  expect((await call('GET', '/__scenario__', { testId })).body).toEqual({ testId, scenarioId: 'premium', scenarioName: 'Premium user', variant: 'gold' });
  await post('{"scenario":"declined"}', testId);
  expect((await call('GET', '/__scenario__', { testId })).body).toEqual({ testId, scenarioId: 'declined', scenarioName: 'Declined' });
});

test('a missing or empty test-ID header means default-test', async () => {
  expect((await post('{"scenario":"premium"}')).body).toMatchObject({ testId: 'default-test' });
  expect((await call('GET', '/__scenario__', { testId: '' })).body).toMatchObject({ testId: 'default-test', scenarioId: 'premium' });
});

test.each([
  ['{}', { code: 'invalid_type', expected: 'string', received: 'undefined', path: ['scenario'] }],
  ['{"scenario":""}', { code: 'too_small', expected: 'string of length >= 1', received: 'string of length 0', path: ['scenario'] }],
  ['{"scenario":42}', { code: 'invalid_type', expected: 'string', received: 'number', path: ['scenario'] }],
  ['{"scenario":"premium","variant":7}', { code: 'invalid_type', expected: 'string', received: 'number', path: ['variant'] }],
  ['[]', { code: 'invalid_type', expected: 'object', received: 'array', path: [] }],
  ['"premium"', { code: 'invalid_type', expected: 'object', received: 'string', path: [] }],
  ['3', { code: 'invalid_type', expected: 'object', received: 'number', path: [] }],
  ['null', { code: 'invalid_type', expected: 'object', received: 'null', path: [] }],
  ['{"scenario":', { code: 'invalid_json', expected: 'JSON object', received: 'malformed JSON', path: [] }],
  ['', { code: 'invalid_json', expected: 'JSON object', received: 'malformed JSON', path: [] }],
])('the body %s is 400 Invalid request body with a detailed issue', async (body, issue) => {
  const result = await post(body, randomUUID());
  expect(result.status).toBe(400);
  expect(result.contentType).toBe('application/json');
  expect(result.body).toEqual({ error: 'Invalid request body', details: [{ ...issue, message: expect.any(String) }] });
});

test('an unknown scenario is SPEC\'s 400 and changes nothing', async () => {
  const testId = randomUUID();
  await post('{"scenario":"premium"}', testId);
  expect(await post('{"scenario":"nope"}', testId)).toMatchObject({ status: 400, body: { error: "Scenario 'nope' not found. Did you forget to register it?" } });
  expect(await post('{"scenario":42}', testId)).toMatchObject({ status: 400 });
  expect((await call('GET', '/__scenario__', { testId })).body).toMatchObject({ scenarioId: 'premium' });
});

test('every switch clears state, also to the scenario already active; an invalid one keeps it', async () => {
  const testId = randomUUID();
  await harness.start();
  try {
    await harness.run(testId, () => fetch('https://api.x.test/v'));
    expect((await call('GET', '/__harness__/state', { testId })).body).toEqual({ testId, state: { seen: true } });
    await post('{"scenario":"nope"}', testId);
    expect((await call('GET', '/__harness__/state', { testId })).body).toEqual({ testId, state: { seen: true } });
    await post('{"scenario":"default"}', testId);
    expect((await call('GET', '/__harness__/state', { testId })).body).toEqual({ testId, state: {} });
    await harness.run(testId, () => fetch('https://api.x.test/v'));
    await post('{"scenario":"default"}', testId);
    expect((await call('GET', '/__harness__/state', { testId })).body).toEqual({ testId, state: {} });
  } finally {
    await harness.stop();
  }
});

test('DELETE ends the test ID: scenario and state are gone', async () => {
  const testId = randomUUID();
  await post('{"scenario":"premium"}', testId);
  expect(await call('DELETE', '/__scenario__', { testId })).toEqual({ status: 200, contentType: 'application/json', body: { success: true, testId } });
  expect((await call('GET', '/__scenario__', { testId })).status).toBe(404);
});

test('GET state is {} for a test that wrote nothing', async () => {
  expect(await call('GET', '/__harness__/state', { testId: 'never-seen' })).toMatchObject({ status: 200, body: { testId: 'never-seen', state: {} } });
});

test('other methods on control paths are 405 with an Allow header; other paths are not handled', async () => {
  const response = await harness.handle(new Request('http://app.test/__scenario__', { method: 'PUT' }));
  expect(response?.status).toBe(405);
  expect(response?.headers.get('allow')).toBe('POST, DELETE, GET');
  expect(await response?.json()).toEqual({ error: expect.stringContaining('Method PUT is not allowed') });
  expect(await harness.handle(new Request('http://app.test/api/users'))).toBeNull();
  expect(await harness.handle(new Request('http://app.test/__scenario__/x'))).toBeNull();
});

test('custom endpoint paths answer and the default paths are left to the app', async () => {
  const custom = createHarness({ enabled: true, scenarios, endpoints: { setScenario: '/t/switch', getScenario: '/t/active', getState: '/t/state' } });
  const testId = randomUUID();
  const headers = { 'x-harness-test-id': testId };
  const switched = await custom.handle(new Request('http://app.test/t/switch', { method: 'POST', headers, body: '{"scenario":"premium"}' }));
  expect(await switched?.json()).toEqual({ success: true, testId, scenarioId: 'premium' });
  expect(await (await custom.handle(new Request('http://app.test/t/active', { headers })))?.json()).toMatchObject({ scenarioId: 'premium' });
  expect(await (await custom.handle(new Request('http://app.test/t/state', { headers })))?.json()).toEqual({ testId, state: {} });
  expect(await custom.handle(new Request('http://app.test/__scenario__', { method: 'POST', headers, body: '{"scenario":"premium"}' }))).toBeNull();
  expect(await custom.handle(new Request('http://app.test/__harness__/state', { headers }))).toBeNull();
});

test('an unexpected failure is 500 Internal server error, with the detail logged and no stack sent', async () => {
  const failing = createHarness({
    enabled: true,
    scenarios,
    logger: { warn: () => {}, error: (m, e) => logged.push(`${m}: ${(e as Error).message}`) },
    store: {
      read: async () => { throw new Error('disk on fire'); },
      activate: async () => { throw new Error('disk on fire'); },
      advanceSequence: async () => 0,
      updateState: async () => {},
      end: async () => {},
    },
  });
  const response = await failing.handle(new Request('http://app.test/__scenario__', { method: 'POST', body: '{"scenario":"premium"}' }));
  expect(response?.status).toBe(500);
  expect(await response?.json()).toEqual({ error: 'Internal server error' });
  expect(logged.join('\n')).toContain('disk on fire');
});

test('a variant the scenario does not declare is accepted, echoed and warned about', async () => {
  const testId = randomUUID();
  expect((await post('{"scenario":"premium","variant":"platinum"}', testId)).body).toMatchObject({ variant: 'platinum' });
  expect(logged.join('\n')).toMatch(/variant "platinum" of scenario "premium".*Declared variants: "gold"/);
});

test('a disabled harness handles nothing', async () => {
  const disabled = createHarness({ enabled: false, scenarios });
  expect(await disabled.handle(new Request('http://app.test/__scenario__', { method: 'POST', body: '{"scenario":"premium"}' }))).toBeNull();
  expect(disabled.isControlPath('/__scenario__')).toBe(false);
});
