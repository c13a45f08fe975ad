import { randomUUID } from 'node:crypto';
import { createHarness, type Harness, type Logger } from 'scenario-harness';
import { afterEach, beforeEach, expect, test } from 'vitest';

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
// The first control request starts the harness; a started harness answers calls until stopped.
afterEach(() => harness.stop());

const call = async (method: string, path: string, { testId, body }: { testId?: string; body?: string } = {}) => {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (testId !== undefined) headers['x-harness-test-id'] = testId;
  const response = await harness.handle(new Request(`http://app.test${path}`, { method, headers, body }));
  if (response === null) return { status: 0, body: null };
  const hint = response.headers.get('x-harness-hint') ?? undefined;
  return { status: response.status, contentType: response.headers.get('content-type'), hint, body: (await response.json()) as Record<string, unknown> };
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
  await custom.stop();
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
  await failing.stop();
});

test('a variant the scenario does not declare is accepted and echoed in SPEC\'s body, warned about in x-harness-hint and the log', async () => {
  const testId = randomUUID();
  expect(await post('{"scenario":"premium","variant":"platinum"}', testId)).toMatchObject({
    status: 200,
    body: { success: true, testId, scenarioId: 'premium', variant: 'platinum' },
    hint: 'Scenario "premium" declares no variant "platinum", so it adds no mocks. Declared variants: "gold".',
  });
  expect(Object.keys((await post('{"scenario":"premium","variant":"platinum"}', testId)).body ?? {}).sort()).toEqual(['scenarioId', 'success', 'testId', 'variant']);
  expect(logged.join('\n')).toMatch(new RegExp(`Test "${testId}" selected an undeclared variant\\. Scenario "premium" declares no variant "platinum".*Declared variants: "gold"`));
});

test('the warning for an undeclared variant suggests the declared one it is close to', async () => {
  const { hint } = await post('{"scenario":"premium","variant":"Gold"}', randomUUID());
  expect(hint).toBe('Scenario "premium" declares no variant "Gold", so it adds no mocks. Did you mean "gold"? Declared variants: "gold".');
  expect((await post('{"scenario":"premium","variant":"gld"}', randomUUID())).hint).toContain('Did you mean "gold"?');
  expect((await post('{"scenario":"premium","variant":"gold"}', randomUUID())).hint).toBeUndefined();
});

test('an unknown scenario answers SPEC\'s body exactly and puts the near ID and the registered ones in x-harness-hint and the log', async () => {
  const testId = randomUUID();
  const answer = await post('{"scenario":"Premium"}', testId);
  expect(answer.status).toBe(400);
  expect(answer.body).toEqual({ error: "Scenario 'Premium' not found. Did you forget to register it?" });
  expect(answer.hint).toBe('Did you mean "premium"? Registered scenarios: "default", "premium", "declined".');
  expect(logged).toContain(`Test "${testId}" asked for scenario "Premium", which is not registered. Did you mean "premium"? Registered scenarios: "default", "premium", "declined".`);
  expect((await post('{"scenario":"declnied"}', randomUUID())).hint).toBe('Did you mean "declined"? Registered scenarios: "default", "premium", "declined".');
  expect((await post('{"scenario":"zzz"}', randomUUID())).hint).toBe('Registered scenarios: "default", "premium", "declined".');
});

test('with many scenarios, the hint names the catalogue instead of listing them all', async () => {
  const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`scenario${i}`, { name: `S${i}`, mocks: [] }]));
  const big = createHarness({ enabled: true, scenarios: { ...many, githubDown: { name: 'GitHub down', mocks: [] } }, logger: { warn: () => {}, error: () => {} } });
  await big.start();
  try {
    const response = await big.handle(new Request('http://app.test/__scenario__', { method: 'POST', body: '{"scenario":"GithubDown"}' }));
    expect(await response?.json()).toEqual({ error: "Scenario 'GithubDown' not found. Did you forget to register it?" });
    expect(response?.headers.get('x-harness-hint')).toBe('Did you mean "githubDown"? 13 scenarios are registered; GET /__harness__/scenarios lists them.');
    await expect(big.switchScenario('t', 'GithubDown' as 'githubDown')).rejects.toThrow(
      `Scenario 'GithubDown' not found. Did you forget to register it? Did you mean "githubDown"? 13 scenarios are registered; GET /__harness__/scenarios lists them.`,
    );
  } finally {
    await big.stop();
  }
});

test('an unknown key in an invalid switch body is named, after SPEC\'s issue, with the key it is close to', async () => {
  const result = await post('{"scenaro":"premium"}', randomUUID());
  expect(result.status).toBe(400);
  expect(result.body).toEqual({
    error: 'Invalid request body',
    details: [
      { code: 'invalid_type', expected: 'string', received: 'undefined', path: ['scenario'], message: expect.any(String) },
      {
        code: 'unrecognized_keys',
        expected: 'one of "scenario", "variant"',
        received: 'key "scenaro"',
        path: ['scenaro'],
        message: 'Unknown key "scenaro" (did you mean "scenario"?); allowed keys: "scenario", "variant"',
      },
    ],
  });
});

test('an unknown key beside a valid switch is ignored, as before, and named in x-harness-hint and the log', async () => {
  const testId = randomUUID();
  const answer = await post('{"scenario":"premium","varient":"gold"}', testId);
  expect(answer.body).toEqual({ success: true, testId, scenarioId: 'premium' });
  expect(answer.hint).toBe('Ignored unknown key "varient" (did you mean "variant"?); allowed keys: "scenario", "variant".');
  expect(logged).toContain(`Test "${testId}" switched to scenario "premium". Ignored unknown key "varient" (did you mean "variant"?); allowed keys: "scenario", "variant".`);
  expect((await call('GET', '/__scenario__', { testId })).body).toEqual({ testId, scenarioId: 'premium', scenarioName: 'Premium user' });
});

test('a hint keeps characters a header cannot carry as \\uXXXX', async () => {
  const intl = createHarness({ enabled: true, scenarios: { default: { name: 'D', mocks: [] }, 'café': { name: 'Café', mocks: [] } }, logger: { warn: () => {}, error: () => {} } });
  try {
    const response = await intl.handle(new Request('http://app.test/__scenario__', { method: 'POST', body: '{"scenario":"Café"}' }));
    expect(response?.status).toBe(400);
    expect(response?.headers.get('x-harness-hint')).toBe('Did you mean "caf\\u00e9"? Registered scenarios: "default", "caf\\u00e9".');
  } finally {
    await intl.stop();
  }
});

test('the catalogue lists every scenario with its name, description and declared variants', async () => {
  const described = createHarness({
    enabled: true,
    scenarios: { default: { name: 'Happy path', description: 'Every API answers', mocks: [] }, premium: { name: 'Premium', mocks: [], variants: { gold: { mocks: [] }, silver: { mocks: [] } } } },
  });
  await described.start();
  try {
    const response = await described.handle(new Request('http://app.test/__harness__/scenarios'));
    expect(response?.status).toBe(200);
    expect(response?.headers.get('content-type')).toBe('application/json');
    const catalogue = {
      scenarios: [
        { id: 'default', name: 'Happy path', description: 'Every API answers', variants: [] },
        { id: 'premium', name: 'Premium', variants: ['gold', 'silver'] },
      ],
    };
    expect(await response?.json()).toEqual(catalogue);
    expect(described.listScenarios()).toEqual(catalogue.scenarios);
    expect((await described.handle(new Request('http://app.test/__harness__/scenarios', { method: 'HEAD' })))?.status).toBe(200);
  } finally {
    await described.stop();
  }
});

test('the catalogue answers GET only, and its path is configurable', async () => {
  const response = await harness.handle(new Request('http://app.test/__harness__/scenarios', { method: 'POST', body: '{}' }));
  expect(response?.status).toBe(405);
  expect(response?.headers.get('allow')).toBe('GET');
  expect(await response?.json()).toEqual({ error: 'Method POST is not allowed on /__harness__/scenarios. Use GET.' });

  const custom = createHarness({ enabled: true, scenarios, endpoints: { scenarios: '/t/catalogue' }, logger: { warn: () => {}, error: () => {} } });
  await custom.start();
  try {
    expect(await (await custom.handle(new Request('http://app.test/t/catalogue')))?.json()).toMatchObject({ scenarios: [{ id: 'default' }, { id: 'premium' }, { id: 'declined' }] });
    expect(await custom.handle(new Request('http://app.test/__harness__/scenarios'))).toBeNull();
  } finally {
    await custom.stop();
  }
});

test('two GET endpoints on one path are refused at creation', () => {
  expect(() => createHarness({ enabled: true, scenarios, endpoints: { scenarios: '/__harness__/state' } })).toThrow(
    'Invalid createHarness options: "endpoints.getState" and "endpoints.scenarios" are both "/__harness__/state"; both answer GET, so give them different paths.',
  );
  expect(() => createHarness({ enabled: true, scenarios, endpoints: { scenario: '/x' } as never })).toThrow('"endpoints.scenario" is not an endpoint (did you mean "scenarios"?)');
});

test('a misspelt option is refused with the nearest one, not silently ignored (JavaScript has no excess-property check)', () => {
  expect(() => createHarness({ enabled: true, scenarios, unhandeld: 'error' } as never)).toThrow(
    /^Invalid createHarness options: "unhandeld" is not an option \(did you mean "unhandled"\?\); the options are enabled, scenarios, /,
  );
  expect(() => createHarness({ enabled: false, scenarios, journl: false } as never)).toThrow('"journl" is not an option (did you mean "journal"?)');
});

test('a disabled harness handles nothing', async () => {
  const disabled = createHarness({ enabled: false, scenarios });
  expect(await disabled.handle(new Request('http://app.test/__scenario__', { method: 'POST', body: '{"scenario":"premium"}' }))).toBeNull();
  expect(disabled.isControlPath('/__scenario__')).toBe(false);
});
