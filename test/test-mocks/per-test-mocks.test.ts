/**
 * Per-test mocks and seeded state (issue 25), over real HTTP: an Express app whose routes call
 * an API with fetch, the client of scenario-harness/client switching, adding mocks and seeding
 * state as a test would.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHarness, createMemoryStore, isHarnessError, type Mock } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { harnessMiddleware } from 'scenario-harness/express';
import { afterAll, beforeAll, expect, test } from 'vitest';

const API = 'https://api.shop.test';

const scenarios = {
  default: {
    name: 'Default',
    mocks: [
      { method: 'POST', url: `${API}/orders`, response: { status: 201, body: { id: 'o-default' } } },
      { method: 'GET', url: `${API}/me`, response: { body: { name: 'Guest' } } },
      { method: 'GET', url: `${API}/me`, match: { state: { 'user.plan': 'pro' } }, response: { body: { name: 'Pro {{state.user.id}}' } } },
    ],
  },
  busy: {
    name: 'Busy',
    mocks: [{ method: 'POST', url: `${API}/orders`, response: { status: 503, body: { error: 'busy' } } }],
    variants: { slow: { mocks: [{ method: 'POST', url: `${API}/orders`, response: { status: 504, body: { error: 'slow' } } }] } },
  },
} satisfies Record<string, { name: string; mocks: Mock[]; variants?: Record<string, { mocks: Mock[] }> }>;

const harness = createHarness({ enabled: true, scenarios, unhandled: 'error', announce: false, limits: { maxTestMocks: 5, maxTestMockBytes: 4096 } });
let server: Server;
let origin: string;

beforeAll(async () => {
  await harness.start();
  const app = express();
  app.use(harnessMiddleware(harness));
  // The app's own routes: each calls the API and hands back what it answered.
  const relay = async (res: express.Response, url: string, init?: RequestInit) => {
    const response = await fetch(url, init);
    res.json({ status: response.status, body: await response.json() });
  };
  app.post('/order', (_req, res) => relay(res, `${API}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"sku":"a"}' }));
  app.get('/me', (_req, res) => relay(res, `${API}/me`));
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await harness.stop();
});

function newTest() {
  const client = createHarnessClient({ baseURL: origin, testId: randomUUID(), logger: { warn: () => {} } });
  const order = async () => (await (await fetch(`${origin}/order`, { method: 'POST', headers: client.headers })).json()) as { status: number; body: unknown };
  const me = async () => (await (await fetch(`${origin}/me`, { headers: client.headers })).json()) as { status: number; body: unknown };
  const mocksEndpoint = (method: string, body?: unknown) =>
    fetch(`${origin}/__harness__/mocks`, { method, headers: { ...client.headers, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { client, order, me, mocksEndpoint };
}

const conflictOnThirdCall: Mock = {
  id: 'third-conflicts',
  method: 'POST',
  url: `${API}/orders`,
  sequence: { responses: [{ status: 201, body: { id: 'o-1' } }, { status: 201, body: { id: 'o-2' } }, { status: 409, body: { error: 'duplicate' } }] },
};

test('a mock of the test\'s own answers a 409 on the third call, journaled as layer "test"', async () => {
  const { client, order } = newTest();
  expect(await client.use(conflictOnThirdCall)).toBe(1);
  expect((await order()).status).toBe(201);
  expect((await order()).status).toBe(201);
  expect(await order()).toEqual({ status: 409, body: { error: 'duplicate' } });
  const calls = await client.calls({ method: 'POST' });
  expect(calls.map(({ layer, mockId, step }) => ({ layer, mockId, step }))).toEqual([
    { layer: 'test', mockId: 'third-conflicts', step: 0 },
    { layer: 'test', mockId: 'third-conflicts', step: 1 },
    { layer: 'test', mockId: 'third-conflicts', step: 2 },
  ]);
  expect(calls[0]!.scenarioId).toBe('default');
});

test('they answer before the variant, the scenario and default, for their test only', async () => {
  const mine = newTest();
  const other = newTest();
  await mine.client.switchScenario('busy', { variant: 'slow' });
  await other.client.switchScenario('busy', { variant: 'slow' });
  await mine.client.use({ method: 'POST', url: `${API}/orders`, response: { status: 202, body: { id: 'mine' } } });
  expect(await mine.order()).toEqual({ status: 202, body: { id: 'mine' } });
  expect(await other.order()).toEqual({ status: 504, body: { error: 'slow' } });
  // What the test's mocks do not cover still comes from its scenario and default.
  expect(await mine.me()).toEqual({ status: 200, body: { name: 'Guest' } });
});

test('they are kept across a switch, which starts their sequences over', async () => {
  const { client, order } = newTest();
  await client.use(conflictOnThirdCall);
  await order();
  await order();
  await client.switchScenario('busy');
  expect(await order()).toEqual({ status: 201, body: { id: 'o-1' } });
  await client.switchScenario('busy');
  expect(await order()).toEqual({ status: 201, body: { id: 'o-1' } });
});

test('later mocks add to earlier ones, the newest winning a tie; GET lists them newest first', async () => {
  const { client, order, mocksEndpoint } = newTest();
  await client.use({ method: 'POST', url: `${API}/orders`, response: { status: 201, body: { id: 'first' } } });
  expect(await client.use({ method: 'POST', url: `${API}/orders`, response: { status: 201, body: { id: 'second' } } })).toBe(2);
  expect((await order()).body).toEqual({ id: 'second' });
  const listed = await mocksEndpoint('GET');
  expect(listed.status).toBe(200);
  expect(await listed.json()).toEqual({
    testId: client.testId,
    mocks: [
      { method: 'POST', url: `${API}/orders`, response: { status: 201, body: { id: 'second' } } },
      { method: 'POST', url: `${API}/orders`, response: { status: 201, body: { id: 'first' } } },
    ],
  });
});

test('DELETE removes them: the scenario answers again', async () => {
  const { client, order, mocksEndpoint } = newTest();
  await client.use(conflictOnThirdCall);
  expect((await order()).body).toEqual({ id: 'o-1' });
  const removed = await mocksEndpoint('DELETE');
  expect(await removed.json()).toEqual({ testId: client.testId, mocks: 0 });
  expect((await order()).body).toEqual({ id: 'o-default' });
  // Added again, its sequence starts at its first response.
  await client.use(conflictOnThirdCall);
  expect((await order()).body).toEqual({ id: 'o-1' });
  await client.resetMocks();
  expect((await order()).body).toEqual({ id: 'o-default' });
});

test('they end with the test', async () => {
  const { client, order, mocksEndpoint } = newTest();
  await client.use({ method: 'POST', url: `${API}/orders`, response: { status: 202, body: { id: 'mine' } } });
  await client.endTest();
  expect((await order()).body).toEqual({ id: 'o-default' });
  expect(await (await mocksEndpoint('GET')).json()).toEqual({ testId: client.testId, mocks: [] });
});

test('an invalid body is a 400 naming the mock and field, and changes nothing', async () => {
  const { client, order, mocksEndpoint } = newTest();
  await client.use({ method: 'POST', url: `${API}/orders`, response: { status: 202, body: { id: 'kept' } } });
  const refused = await mocksEndpoint('POST', { mocks: [{ url: `${API}/me`, response: { body: {} } }, { url: `${API}/orders`, response: { status: 700 } }] });
  expect(refused.status).toBe(400);
  const body = (await refused.json()) as { error: string; details: { path: unknown[]; field: string; message: string }[] };
  expect(body.error).toMatch(/^Invalid request body: mocks\[1\]\.response\.status: /);
  expect(body.details).toEqual([{ path: ['mocks', 1, 'response', 'status'], field: 'mocks[1].response.status', message: expect.any(String) }]);
  expect(((await (await mocksEndpoint('GET')).json()) as { mocks: unknown[] }).mocks).toHaveLength(1);
  expect((await order()).body).toEqual({ id: 'kept' });
  for (const invalid of [{}, { mocks: 'no' }, { mocks: [], extra: 1 }, [1]]) expect((await mocksEndpoint('POST', invalid)).status).toBe(400);
  // The client says what the app refused, field and all.
  await expect(client.use({ url: `${API}/orders`, response: { status: 700 } })).rejects.toThrow(/answered 400: Invalid request body: mocks\[0\]\.response\.status/);
});

test('past the cap on mocks per test, or on their size, a 413 says which, and nothing is added', async () => {
  const { client, mocksEndpoint } = newTest();
  const one = (id: string): Mock => ({ id, url: `${API}/x/${id}`, response: { status: 204 } });
  expect(await client.use(one('a'), one('b'), one('c'), one('d'))).toBe(4);
  const over = await mocksEndpoint('POST', { mocks: [one('e'), one('f')] });
  expect(over.status).toBe(413);
  expect(((await over.json()) as { error: string }).error).toMatch(/it has 4 and 2 more would pass limits\.maxTestMocks \(5\)\. Nothing was added/);
  expect(await client.use(one('e'))).toBe(5);

  const big = newTest();
  const heavy = await big.mocksEndpoint('POST', { mocks: [{ url: `${API}/big`, response: { body: 'x'.repeat(5000) } }] });
  expect(heavy.status).toBe(413);
  expect(((await heavy.json()) as { error: string }).error).toMatch(/limits\.maxTestMockBytes \(4096\)/);
  expect(await (await big.mocksEndpoint('GET')).json()).toEqual({ testId: big.client.testId, mocks: [] });
});

test('a response function or a RegExp: the client sends the RegExp as data and refuses the function', async () => {
  const { client, me } = newTest();
  await client.use({ method: 'GET', url: /^https:\/\/api\.shop\.test\/me$/, response: { body: { name: 'regex' } } });
  expect((await me()).body).toEqual({ name: 'regex' });
  await expect(client.use({ url: `${API}/me`, response: () => ({ status: 200 }) })).rejects.toThrow(/mocks\[0\]\.response is a function.*harness\.useMocks/);
});

test('in process, useMocks takes response functions; resetMocks removes them', async () => {
  const { client, me } = newTest();
  await client.switchScenario('busy');
  await harness.useMocks(client.testId, [{ method: 'GET', url: `${API}/me`, response: (_request, { testId, scenarioId }) => ({ body: { name: `${testId === client.testId} ${scenarioId}` } }) }]);
  expect((await me()).body).toEqual({ name: 'true busy' });
  await harness.resetMocks(client.testId);
  expect((await me()).body).toEqual({ name: 'Guest' });
  const invalid = await harness.useMocks(client.testId, [{ url: '', response: {} }]).catch((error: unknown) => error);
  expect(isHarnessError(invalid) && invalid.code).toBe('INVALID_SCENARIOS');
  expect((invalid as Error).message).toMatch(/mocks\[0\]\.url/);
});

test('seeded state is merged, seen by templates and match.state, and cleared by a switch', async () => {
  const { client, me } = newTest();
  await client.switchScenario('default');
  expect(await client.setState({ 'user.id': 'u-1', 'user.plan': 'pro', 'visits[]': 1 })).toEqual({ 'user.id': 'u-1', 'user.plan': 'pro', visits: [1] });
  expect(await client.setState({ 'visits[]': 2 })).toEqual({ 'user.id': 'u-1', 'user.plan': 'pro', visits: [1, 2] });
  expect((await me()).body).toEqual({ name: 'Pro u-1' });
  await client.switchScenario('default');
  expect(await client.getState()).toEqual({});
  expect((await me()).body).toEqual({ name: 'Guest' });
  await harness.setState(client.testId, { 'user.plan': 'pro', 'user.id': 'u-2' });
  expect((await me()).body).toEqual({ name: 'Pro u-2' });
});

test('an invalid state seed is a 400 and changes nothing', async () => {
  const { client } = newTest();
  await client.setState({ kept: true });
  const send = (body: unknown) => fetch(`${origin}/__harness__/state`, { method: 'POST', headers: { ...client.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  for (const invalid of [{}, { state: [1] }, { state: 'x' }, { state: { '[]': 1 } }, { state: {}, other: 1 }]) {
    const refused = await send(invalid);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toMatch(/^Invalid request body: /);
  }
  expect(await client.getState()).toEqual({ kept: true });
});

test('a store without per-test mocks answers 501 saying so', async () => {
  const { addMocks: _add, readMocks: _read, resetMocks: _reset, ...store } = createMemoryStore();
  const bare = createHarness({ enabled: true, scenarios, store, announce: false, intercept: false });
  const response = await bare.handle(new Request('http://127.0.0.1/__harness__/mocks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"mocks":[]}' }));
  expect(response?.status).toBe(501);
  expect(((await response!.json()) as { error: string }).error).toMatch(/store keeps none/);
  await bare.stop();
});
