/**
 * The per-test call journal: what each test's app sent, which mock answered, and exactly why
 * the nearest mocks did not answer an unanswered call.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import { startHarness } from '../engine/with-harness.js';

const API = 'https://api.pay.test';
const scenarios = {
  default: {
    name: 'Default',
    mocks: [
      { id: 'get-user', method: 'GET' as const, url: `${API}/users/:id`, response: { body: { id: '{{params.id}}' } } },
      { method: 'GET' as const, url: `${API}/status`, sequence: { responses: [{ body: 'starting' }, { body: 'ready', delay: 5 }] } },
    ],
  },
  checkout: {
    name: 'Checkout',
    mocks: [
      { id: 'charge-5000', method: 'POST' as const, url: `${API}/v1/charges`, match: { body: { amount: 5000, currency: 'usd' } }, response: { status: 201, body: { id: 'ch_1' } } },
      { method: 'GET' as const, url: `${API}/v1/charges`, match: { query: { page: '2' } }, response: { body: [] } },
    ],
    variants: { slow: { mocks: [{ id: 'slow-user', method: 'GET' as const, url: `${API}/users/:id`, response: { body: { slow: true } } }] } },
  },
};

const post = (url: string, body: unknown, headers: Record<string, string> = {}) => fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

/** Credential headers of Azure, Datadog, Cloudflare and others that names like "token" miss (issue 23, item 12). */
const PLATFORM_KEYS = ['ocp-apim-subscription-key', 'x-functions-key', 'x-auth-key', 'dd-application-key', 'dd-api-key', 'x-master-key', 'x-jwt-assertion', 'api_key', 'x_api_key'];

test('an answered call is recorded with what was sent (secrets redacted) and which mock of which layer answered', async () => {
  const { harness, asTest } = await startHarness(scenarios);
  const testId = randomUUID();
  await harness.switchScenario(testId, 'checkout', 'slow');
  await harness.run(testId, async () => {
    await post(`${API}/v1/charges`, { amount: 5000, currency: 'usd' }, { authorization: 'Bearer sk_live_123', 'x-api-key': 'k', 'x-auth-token': 't', 'idempotency-key': 'order-7' });
    await fetch(`${API}/users/42`, { headers: Object.fromEntries(PLATFORM_KEYS.map((name) => [name, `secret-${name}`])) });
    await fetch(`${API}/status`);
    await fetch(`${API}/status`);
  });
  await asTest(undefined, () => fetch(`${API}/users/7`)); // another test: never in this test's journal
  const calls = await harness.getCalls(testId);
  expect(calls).toHaveLength(4);
  const [charge, user, first, second] = calls;
  expect(charge).toMatchObject({
    method: 'POST',
    url: `${API}/v1/charges`,
    requestBody: { amount: 5000, currency: 'usd' },
    answered: true,
    scenarioId: 'checkout',
    layer: 'scenario',
    mockIndex: 0,
    mockId: 'charge-5000',
    status: 201,
  });
  expect(charge!.requestHeaders).toMatchObject({ authorization: '[redacted]', 'x-api-key': '[redacted]', 'x-auth-token': '[redacted]', 'idempotency-key': 'order-7', 'content-type': 'application/json' });
  expect(Date.parse(charge!.at)).toBeGreaterThan(Date.now() - 60_000);
  expect(user!.requestHeaders).toMatchObject(Object.fromEntries(PLATFORM_KEYS.map((name) => [name, '[redacted]'])));
  expect(charge!.durationMs).toBeGreaterThanOrEqual(0);
  expect(user).toMatchObject({ answered: true, scenarioId: 'checkout', variant: 'slow', layer: 'variant', mockId: 'slow-user' });
  expect(first).toMatchObject({ layer: 'default', scenarioId: 'default', mockIndex: 1, step: 0, status: 200 });
  expect(second).toMatchObject({ step: 1, delayMs: 5 });
  expect(second!.durationMs).toBeGreaterThanOrEqual(5);
  expect(JSON.stringify(calls)).not.toContain('sk_live_123');
});

test('entries list their fields in one order: the request, its body, then the answer (as the inspector and the JSON show them)', async () => {
  const { harness } = await startHarness(scenarios, { unhandled: 'error' });
  const testId = randomUUID();
  await harness.switchScenario(testId, 'checkout', 'slow');
  await harness.run(testId, async () => {
    await post(`${API}/v1/charges`, { amount: 5000, currency: 'usd' });
    await fetch(`${API}/users/1`);
    await fetch(`${API}/status`);
    await fetch(`${API}/status`);
  });
  const [charge, user, first, second] = await harness.getCalls(testId);
  expect(Object.keys(charge!)).toEqual(['at', 'method', 'url', 'requestHeaders', 'requestBody', 'answered', 'scenarioId', 'layer', 'mockIndex', 'mockId', 'status', 'durationMs']);
  expect(Object.keys(user!)).toEqual(['at', 'method', 'url', 'requestHeaders', 'answered', 'scenarioId', 'variant', 'layer', 'mockIndex', 'mockId', 'status', 'durationMs']);
  expect(Object.keys(first!)).toEqual(['at', 'method', 'url', 'requestHeaders', 'answered', 'scenarioId', 'layer', 'mockIndex', 'status', 'step', 'durationMs']);
  expect(Object.keys(second!)).toEqual(['at', 'method', 'url', 'requestHeaders', 'answered', 'scenarioId', 'layer', 'mockIndex', 'status', 'delayMs', 'step', 'durationMs']);
  await expect(harness.run(testId, () => post(`${API}/v1/charges`, { amount: 1 }))).rejects.toThrow('fetch failed');
  const [missed] = await harness.getCalls(testId, { unanswered: true });
  expect(Object.keys(missed!)).toEqual(['at', 'method', 'url', 'requestHeaders', 'requestBody', 'answered', 'unhandled', 'durationMs', 'nearMisses']);
});

test('request headers are kept as sent, whatever their names; a call without headers records none', async () => {
  const { harness } = await startHarness(scenarios);
  const testId = randomUUID();
  await harness.run(testId, async () => {
    await fetch(`${API}/users/1`, { headers: [['__proto__', 'not a prototype'], ['constructor', 'c']] });
    await fetch(`${API}/users/2`);
  });
  const [named, bare] = await harness.getCalls(testId);
  expect(Object.entries(named!.requestHeaders)).toEqual([['__proto__', 'not a prototype'], ['constructor', 'c']]);
  expect(bare!.requestHeaders).toEqual({});
  expect(JSON.stringify(bare!.requestHeaders)).toBe('{}');
});

test('an unanswered call says exactly which criterion of each near mock failed — the same text in the log, the error and the journal', async () => {
  const { harness, logs } = await startHarness(scenarios, { unhandled: 'error' });
  const testId = randomUUID();
  await harness.switchScenario(testId, 'checkout');
  const error = await harness.run(testId, () => post(`${API}/v1/charges`, { amount: 4000, currency: 'usd' })).then(() => undefined, (e: unknown) => e as TypeError);
  const [entry] = await harness.getCalls(testId, { unanswered: true });
  const expected = [
    'POST https://api.pay.test/v1/charges (checkout#0, id "charge-5000"): match.body.amount: expected 5000, received 4000',
    'GET https://api.pay.test/v1/charges (checkout#1): method: expected GET, received POST',
  ];
  expect(entry).toMatchObject({ answered: false, unhandled: 'failed', nearMisses: expected, requestBody: { amount: 4000, currency: 'usd' } });
  for (const line of expected) {
    expect((error?.cause as Error).message).toContain(line);
    expect(logs.join('\n')).toContain(line);
  }

  await harness.run(testId, () => fetch(`${API}/v1/charges?page=1`).catch(() => undefined));
  await harness.run(testId, () => fetch(`${API}/v1/charge`).catch(() => undefined));
  const [, byQuery, byUrl] = await harness.getCalls(testId);
  expect(byQuery!.nearMisses).toEqual([
    'POST https://api.pay.test/v1/charges (checkout#0, id "charge-5000"): method: expected POST, received GET',
    'GET https://api.pay.test/v1/charges (checkout#1): match.query.page: expected "2", received "1"',
  ]);
  expect(byUrl!.nearMisses).toEqual([
    'no mock has this URL; the closest: GET https://api.pay.test/v1/charges (checkout#1); POST https://api.pay.test/v1/charges (checkout#0, id "charge-5000"); GET https://api.pay.test/status (default#1)',
  ]);
});

test('a missing query parameter, a missing body key and an undefined body are named as such', async () => {
  const { harness } = await startHarness({
    default: {
      name: 'D',
      mocks: [
        { method: 'GET', url: `${API}/list`, match: { query: { page: { regex: { source: '^\\d+$' } } } }, response: { body: [] } },
        { method: 'POST', url: `${API}/orders`, match: { body: { customer: { email: { endsWith: '@corp.com' } } } }, response: { body: {} } },
      ],
    },
  });
  const testId = randomUUID();
  await harness.run(testId, async () => {
    await fetch(`${API}/list`).catch(() => undefined);
    await post(`${API}/orders`, { customer: {} }).catch(() => undefined);
    await post(`${API}/orders`, { customer: { email: 'ada@home.org' } }).catch(() => undefined);
    await fetch(`${API}/orders`, { method: 'POST' }).catch(() => undefined);
  });
  expect((await harness.getCalls(testId)).map((call) => call.nearMisses?.[0]?.replace(/^.*?\): /, ''))).toEqual([
    'match.query.page: missing (expected /^\\d+$/)',
    'match.body.customer.email: missing',
    'match.body.customer.email: expected a text ending with "@corp.com", received "ada@home.org"',
    'match.body: the call has no body',
  ]);
});

test('the journal is a ring of maxEntries per test, bodies are cut at maxBodyBytes, and filters narrow it', async () => {
  const { harness } = await startHarness(scenarios, { unhandled: 'bypass', journal: { maxEntries: 3, maxBodyBytes: 16 } });
  const testId = randomUUID();
  await harness.switchScenario(testId, 'checkout');
  await harness.run(testId, async () => {
    for (const id of [1, 2, 3]) await fetch(`${API}/users/${id}`);
    await post(`${API}/v1/charges`, { amount: 5000, currency: 'usd', description: 'a long description' });
  });
  const calls = await harness.getCalls(testId);
  expect(calls.map((call) => call.url)).toEqual([`${API}/users/2`, `${API}/users/3`, `${API}/v1/charges`]);
  expect(calls[2]).toMatchObject({ requestBody: '{"amount":5000,"', requestBodyTruncated: true, answered: true });
  expect((await harness.getCalls(testId, { method: 'post' })).length).toBe(1);
  expect((await harness.getCalls(testId, { url: '*/users/*' })).map((call) => call.url)).toEqual([`${API}/users/2`, `${API}/users/3`]);
  expect((await harness.getCalls(testId, { url: 'charges' })).length).toBe(1);
  expect((await harness.getCalls(testId, { mockId: 'get-user' })).length).toBe(2);
  await harness.clearCalls(testId);
  expect(await harness.getCalls(testId)).toEqual([]);
  expect(await harness.getActiveScenario(testId)).toEqual({ scenarioId: 'checkout' });
});

test('redaction is configurable: more names, or none', async () => {
  const more = await startHarness(scenarios, { journal: { redactHeaders: ['x-tenant'] } });
  const id1 = randomUUID();
  await more.harness.run(id1, () => fetch(`${API}/users/1`, { headers: { 'x-tenant': 'acme', authorization: 'Basic x' } }));
  expect((await more.harness.getCalls(id1))[0]!.requestHeaders).toMatchObject({ 'x-tenant': '[redacted]', authorization: '[redacted]' });
  await more.harness.stop();
  const none = await startHarness(scenarios, { journal: { redactHeaders: false } });
  const id2 = randomUUID();
  await none.harness.run(id2, () => fetch(`${API}/users/1`, { headers: { authorization: 'Basic x' } }));
  expect((await none.harness.getCalls(id2))[0]!.requestHeaders).toMatchObject({ authorization: 'Basic x' });
});

test('over HTTP: GET /__harness__/journal answers the header\'s test with filters, DELETE clears it, ending the test drops it, journal: false is a 404', async () => {
  const { harness } = await startHarness(scenarios, { unhandled: 'bypass' });
  const testId = randomUUID();
  await harness.run(testId, async () => {
    await fetch(`${API}/users/1`);
    await fetch(`${API}/nothing`).catch(() => undefined);
  });
  const control = (method: string, path: string, id = testId) => harness.handle(new Request(`http://app.test${path}`, { method, headers: { 'x-harness-test-id': id } }));
  const all = (await (await control('GET', '/__harness__/journal'))!.json()) as { testId: string; calls: { url: string; answered: boolean }[] };
  expect(all.testId).toBe(testId);
  expect(all.calls.map((call) => [call.url, call.answered])).toEqual([[`${API}/users/1`, true], [`${API}/nothing`, false]]);
  const unanswered = (await (await control('GET', '/__harness__/journal?unanswered=true'))!.json()) as { calls: unknown[] };
  expect(unanswered.calls).toHaveLength(1);
  const filtered = (await (await control('GET', `/__harness__/journal?method=GET&url=${encodeURIComponent('*/users/*')}`))!.json()) as { calls: unknown[] };
  expect(filtered.calls).toHaveLength(1);
  expect(await (await control('DELETE', '/__harness__/journal'))!.json()).toEqual({ success: true, testId });
  expect(((await (await control('GET', '/__harness__/journal'))!.json()) as { calls: unknown[] }).calls).toEqual([]);
  await harness.run(testId, () => fetch(`${API}/users/2`));
  await control('DELETE', '/__scenario__');
  expect(((await (await control('GET', '/__harness__/journal'))!.json()) as { calls: unknown[] }).calls).toEqual([]);
  const post405 = await control('POST', '/__harness__/journal');
  expect([post405!.status, post405!.headers.get('allow')]).toEqual([405, 'GET, DELETE']);
  await harness.stop();

  const off = await startHarness(scenarios, { journal: false });
  const response = await off.harness.handle(new Request('http://app.test/__harness__/journal'));
  expect(response!.status).toBe(404);
  expect(((await response!.json()) as { error: string }).error).toMatch(/journal is off/);
  expect(await off.harness.getCalls('t')).toEqual([]);
});

test('headers undici sends as a record come back from the journal sorted by name, each name once, a repeated secret redacted once', async () => {
  const { request } = await import('undici');
  // A mock without templates: nothing but the journal reads the headers.
  const { harness } = await startHarness({ default: { name: 'Default', mocks: [{ url: `${API}/plain`, response: { body: { ok: true } } }] } });
  const testId = randomUUID();
  await harness.run(testId, async () => {
    const { body } = await request(`${API}/plain`, { headers: { 'X-Trace': 'b', 'x-trace': ['c', 'd'], Authorization: 'Bearer s', accept: 'application/json', 'x-api-key': ['k1', 'k2'] } });
    await body.json();
  });
  const [entry] = await harness.getCalls(testId);
  expect(Object.entries(entry!.requestHeaders)).toEqual([
    ['accept', 'application/json'],
    ['authorization', '[redacted]'],
    ['x-api-key', '[redacted]'],
    ['x-trace', 'b, c, d'],
  ]);
});
