/**
 * Issue 37, items 9 and 10, over HTTP on loopback with the memory store and the Redis store: the
 * own mocks of all tests keep to `limits.maxTotalTestMockBytes` together, and each test's state to
 * `limits.maxStateBytes`. Before, 60 test IDs × 256 KiB of own mocks were all accepted (10,000
 * sessions could hold 2.4 GiB), and an anonymous caller's 320 orders of 256 KiB kept 80 MiB in
 * `default-test`'s state through a mock's `setState`.
 */
import { randomUUID } from 'node:crypto';
import { createHarness, createMemoryStore, defineScenarios, isHarnessError, type Harness, type SessionStore } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { createRedisStore } from 'scenario-harness/redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectClient } from '../redis/clients.js';
import { hasRedisServer, startRedisServer } from '../redis/redis-server.js';
import { startHandlerApp, type App } from './apps.js';

const API = 'https://api.shop.test';
const MAX_TOTAL = 8 * 1024;
const MAX_STATE = 16 * 1024;
const HINT = 'x-harness-hint';

const scenarios = defineScenarios({
  default: {
    name: 'Shop',
    // The whole order goes into the state: what a careless mock does with a caller's body.
    mocks: [{ method: 'POST', url: `${API}/orders`, response: { status: 201, body: { ok: true } }, afterResponse: { setState: { 'orders[]': '{{body}}' } } }],
  },
});

type StoreMaker = () => Promise<{ store: SessionStore; close(): Promise<void> }>;
const stores: [string, StoreMaker][] = [['memory', async () => ({ store: createMemoryStore(), close: async () => {} })]];
if (hasRedisServer()) {
  stores.push([
    'redis',
    async () => {
      const server = await startRedisServer();
      const connected = await connectClient('node-redis', server.url);
      return {
        store: createRedisStore({ client: connected.client }),
        close: async () => {
          await connected.close();
          await server.stop();
        },
      };
    },
  ]);
}

describe.each(stores)('%s store', (_name, makeStore) => {
  const warnings: string[] = [];
  let harness: Harness;
  let app: App;
  let origin: string;
  let closeStore: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const made = await makeStore();
    closeStore = made.close;
    harness = createHarness({
      enabled: true,
      scenarios,
      store: made.store,
      unhandled: 'error',
      announce: false,
      limits: { maxTotalTestMockBytes: MAX_TOTAL, maxStateBytes: MAX_STATE },
      logger: { warn: (message) => void warnings.push(message), error: (message) => void warnings.push(message) },
    });
    await harness.start();
    // The shop: POST /orders passes the caller's order on to the API and answers with its status.
    app = await startHandlerApp(harness, async (req, res) => {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      const answer = await fetch(`${API}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.statusCode = answer.status;
      res.end(await answer.text());
    });
    origin = `http://127.0.0.1:${app.port}`;
  });
  afterAll(async () => {
    await app?.close();
    await closeStore?.();
  });

  const addMocks = (testId: string, bytes: number) =>
    fetch(`${origin}/__harness__/mocks`, {
      method: 'POST',
      headers: { 'x-harness-test-id': testId },
      body: JSON.stringify({ mocks: [{ url: `${API}/filler`, response: { body: { filler: 'x'.repeat(bytes) } } }] }),
    });

  test('the own mocks of all tests keep to limits.maxTotalTestMockBytes: the add past it is a 413 naming the bound, with a hint; an ended test frees its share', async () => {
    const testIds = Array.from({ length: 6 }, () => randomUUID());
    const statuses: number[] = [];
    for (const testId of testIds) statuses.push((await addMocks(testId, 1_900)).status);
    // About 1,970 bytes each as JSON: four fit in 8 KiB.
    expect(statuses).toEqual([200, 200, 200, 200, 413, 413]);
    const refused = await addMocks(testIds[4]!, 1_900);
    expect(refused.status).toBe(413);
    const { error } = (await refused.json()) as { error: string };
    expect(error).toMatch(/^Failed to add 1 mock for test "[^"]+": the own mocks of all tests hold \d+ bytes and these \d+ more would pass limits\.maxTotalTestMockBytes \(8192\)\. Nothing was added\./);
    expect(error).toContain('createHarness({ limits: { maxTotalTestMockBytes } })');
    expect(refused.headers.get(HINT)).toMatch(/^limits\.maxTotalTestMockBytes \(8192\) bounds the own mocks of all tests in the store together/);
    expect(await (await fetch(`${origin}/__harness__/mocks`, { headers: { 'x-harness-test-id': testIds[4]! } })).json()).toEqual({ testId: testIds[4], mocks: [] });
    // The client shows the error; in process, useMocks throws it.
    const client = createHarnessClient({ baseURL: origin, testId: testIds[5]! });
    await expect(client.use({ url: `${API}/filler`, response: { body: 'x'.repeat(2_000) } })).rejects.toThrow(/limits\.maxTotalTestMockBytes \(8192\)/);
    const thrown: unknown = await harness.useMocks(testIds[5]!, [{ url: `${API}/filler`, response: { body: 'x'.repeat(2_000) } }]).catch((e: unknown) => e);
    expect(isHarnessError(thrown) && thrown.code).toBe('INVALID_ARGUMENT');
    expect((thrown as Error).message).toContain('limits.maxTotalTestMockBytes (8192)');
    // Ending a test (as the fixture does at test end) frees its share.
    await fetch(`${origin}/__scenario__`, { method: 'DELETE', headers: { 'x-harness-test-id': testIds[0]! } });
    expect((await addMocks(testIds[4]!, 1_900)).status).toBe(200);
    for (const testId of testIds) await harness.endTest(testId);
  });

  test("an anonymous caller's orders keep default-test's state under limits.maxStateBytes: every call answered, the refusal logged once naming the bound", async () => {
    const order = JSON.stringify({ note: 'y'.repeat(1_000) });
    const answers: number[] = [];
    for (let i = 0; i < 40; i++) answers.push((await fetch(`${origin}/orders`, { method: 'POST', body: order })).status);
    expect(answers).toEqual(Array.from({ length: 40 }, () => 201));
    const state = await harness.getState('default-test');
    expect(Buffer.byteLength(JSON.stringify(state))).toBeLessThanOrEqual(MAX_STATE);
    // "orders" and [ … ]: each order takes its JSON (1,011 bytes) and a comma; 16 fit in 16 KiB.
    expect(state.orders).toHaveLength(16);
    const notes = warnings.filter((line) => line.includes('limits.maxStateBytes'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /^The state of test "default-test" holds \d+ bytes, and the setState of mock POST https:\/\/api\.shop\.test\/orders \(default#0\) for POST https:\/\/api\.shop\.test\/orders would add \d+ more, past limits\.maxStateBytes \(16384\): the state was left as it was and the call was answered \(logged once per test\)\./,
    );
    await harness.endTest('default-test');
  });

  test('a seed past limits.maxStateBytes is a 413 naming the bound, with a hint, and changes nothing; harness.setState throws the same', async () => {
    const testId = randomUUID();
    const seed = (state: Record<string, unknown>) => fetch(`${origin}/__harness__/state`, { method: 'POST', headers: { 'x-harness-test-id': testId }, body: JSON.stringify({ state }) });
    expect((await seed({ first: 'a'.repeat(10_000) })).status).toBe(200);
    const refused = await seed({ second: 'b'.repeat(10_000) });
    expect(refused.status).toBe(413);
    const body = (await refused.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error).toMatch(/^Failed to set the state of test "[^"]+": it holds 10007 bytes and these keys would add 10008 more, past limits\.maxStateBytes \(16384\)\. Nothing was changed\./);
    expect(refused.headers.get(HINT)).toMatch(/^limits\.maxStateBytes \(16384\) bounds one test's state/);
    expect(Object.keys(await harness.getState(testId))).toEqual(['first']);
    const thrown: unknown = await harness.setState(testId, { second: 'b'.repeat(10_000) }).catch((e: unknown) => e);
    expect(isHarnessError(thrown) && thrown.code).toBe('INVALID_ARGUMENT');
    expect((thrown as Error).message).toContain('limits.maxStateBytes (16384)');
    // Replacing the big key with a small one always lands.
    expect((await seed({ first: 'small' })).status).toBe(200);
    await harness.endTest(testId);
  });
});
