import { randomUUID } from 'node:crypto';
import { createHarness, defineScenarios, type Harness, type Logger, type UnhandledCallStrategy } from 'scenario-harness';
import { createRedisStore } from 'scenario-harness/redis';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { REAL_GREETING, startUpstream, type Upstream } from '../conformance/upstream.js';
import { CLIENT_KINDS, connectClient, countRoundTrips, type ClientKind, type ConnectedClient } from './clients.js';
import { hasRedisServer, startRedisServer, type RedisServer } from './redis-server.js';

const HEADER = 'x-harness-test-id';
const API = 'https://api.example.test';

const scenarios = defineScenarios({
  default: { name: 'Default', mocks: [{ method: 'GET', url: '*/upstream/greeting', response: { body: { greeting: 'mocked default' } } }] },
  friendly: { name: 'Friendly', mocks: [{ method: 'GET', url: '*/upstream/greeting', response: { body: { greeting: 'hi, friend' } } }] },
  counting: {
    name: 'Counting',
    mocks: [
      { method: 'GET', url: `${API}/plain`, response: { body: { plain: true } } },
      { method: 'GET', url: `${API}/sequence`, sequence: { responses: [{ body: 1 }, { body: 2 }], repeat: 'cycle' } },
      { method: 'POST', url: `${API}/save`, response: { status: 201 }, afterResponse: { setState: { 'saved[]': 1 } } },
    ],
  },
});

/** A logger that keeps its lines, for asserting what the harness said. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, warn: (message) => void lines.push(`warn: ${message}`), error: (message) => void lines.push(`error: ${message}`) };
}

function control(harness: Harness, method: string, path: string, testId: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method, headers: { [HEADER]: testId, 'content-type': 'application/json' } };
  if (body !== undefined) init.body = JSON.stringify(body);
  return harness.handle(new Request(`http://app.test${path}`, init)) as Promise<Response>;
}

/** What an intercepted call of the app gets, inside the test's context: the body, or the error message. */
async function appCall(harness: Harness, testId: string, url: string, init?: RequestInit): Promise<unknown> {
  return harness.run(testId, async () => {
    try {
      const response = await fetch(url, init);
      return response.headers.get('content-type')?.includes('json') ? await response.json() : response.status;
    } catch (error) {
      return `failed: ${(error as Error).message}`;
    }
  });
}

if (!hasRedisServer()) {
  test.skip('the harness on a Redis store needs redis-server (sudo apt-get install -y redis-server)', () => {});
} else {
  let upstream: Upstream;
  const harnesses: Harness[] = [];
  const clients: ConnectedClient[] = [];
  const servers: RedisServer[] = [];

  /** A started harness on its own redis-server, with the given client library. */
  async function setUp(kind: ClientKind, options: { unhandled: UnhandledCallStrategy; timeoutMs?: number }) {
    const server = await startRedisServer();
    servers.push(server);
    const connected = await connectClient(kind, server.url);
    clients.push(connected);
    const counted = countRoundTrips(connected.client);
    const logger = recordingLogger();
    const store = createRedisStore({ client: counted.client, prefix: `sh:${kind}:`, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) });
    const harness = createHarness({ enabled: true, scenarios, store, unhandled: options.unhandled, logger });
    harnesses.push(harness);
    await harness.start();
    return { server, connected, counted, logger, harness };
  }

  beforeAll(async () => {
    upstream = await startUpstream();
  });
  // Started harnesses share the process's interception, the first one answering: one per test.
  afterEach(async () => {
    for (const harness of harnesses.splice(0)) await harness.stop();
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(servers.map((server) => server.stop()));
    await upstream?.close();
  });

  for (const kind of CLIENT_KINDS) {
    test(`[${kind}] an intercepted call waits for one Redis round trip, two when it advances a sequence or writes state; its journal entry is written behind it`, async () => {
      const { harness, counted } = await setUp(kind, { unhandled: 'error' });
      const testId = randomUUID();
      expect((await control(harness, 'POST', '/__scenario__', testId, { scenario: 'counting' })).status).toBe(200);
      const cost = async (call: () => Promise<unknown>) => {
        const before = counted.count();
        await call();
        return counted.count() - before;
      };
      // The first use of each script costs one more round trip: Redis learns it (NOSCRIPT, then EVAL).
      expect(await appCall(harness, testId, `${API}/plain`)).toEqual({ plain: true });
      expect(await appCall(harness, testId, `${API}/sequence`)).toBe(1);
      expect(await appCall(harness, testId, `${API}/save`, { method: 'POST' })).toBe(201);

      expect(await cost(() => appCall(harness, testId, `${API}/plain`))).toBe(1);
      expect(await cost(() => appCall(harness, testId, `${API}/sequence`))).toBe(2);
      expect(await cost(() => appCall(harness, testId, `${API}/save`, { method: 'POST' }))).toBe(2);
      expect(await appCall(harness, testId, `${API}/sequence`)).toBe(1);
      expect(await (await control(harness, 'GET', '/__harness__/state', testId)).json()).toEqual({ testId, state: { saved: [1, 1] } });

      // The call does not wait for its journal write: held back, the call still completes.
      const writesBefore = counted.journalWrites();
      const release = counted.holdJournal();
      expect(await appCall(harness, testId, `${API}/plain`)).toEqual({ plain: true });
      expect(counted.journalWrites()).toBe(writesBefore + 1);
      release();
      const calls = await harness.getCalls(testId);
      expect(calls.map((call) => `${call.method} ${new URL(call.url).pathname} ${call.answered}`)).toEqual([
        ...['/plain', '/sequence', '/save', '/plain', '/sequence', '/save', '/sequence', '/plain'].map((path) => `${path.startsWith('/save') ? 'POST' : 'GET'} ${new URL(API).pathname.replace(/\/$/, '')}${path} true`),
      ]);
    });

    test(`[${kind}] while Redis is down the control endpoints answer 503 in bounded time, and the next switch after Redis is back works`, async () => {
      const timeoutMs = 300;
      const { harness, server, logger, connected } = await setUp(kind, { unhandled: 'error', timeoutMs });
      const testId = randomUUID();
      expect((await control(harness, 'POST', '/__scenario__', testId, { scenario: 'friendly' })).status).toBe(200);
      expect(await appCall(harness, testId, `${upstream.origin}/upstream/greeting`)).toEqual({ greeting: 'hi, friend' });

      const lost = connected.next('reconnecting');
      await server.stop();
      await lost;
      const started = performance.now();
      const switched = await control(harness, 'POST', '/__scenario__', testId, { scenario: 'counting' });
      expect(performance.now() - started).toBeLessThan(timeoutMs + 1500);
      expect(switched.status).toBe(503);
      expect(await switched.json()).toEqual({
        error: `Failed to activate scenario "counting" for test "${testId}" in Redis: Redis is unreachable (no answer within ${timeoutMs} ms). Check that Redis is running and reachable from this process, and that the client given to createRedisStore() is connected.`,
      });
      // No fallback to memory: reads fail the same way rather than answer 404 or {}.
      expect((await control(harness, 'GET', '/__scenario__', testId)).status).toBe(503);
      expect((await control(harness, 'GET', '/__harness__/state', testId)).status).toBe(503);

      // unhandled: 'error': the call fails, and the log says why.
      expect(await appCall(harness, testId, `${upstream.origin}/upstream/greeting`)).toMatch(/^failed: /);
      expect(logger.lines.at(-1)).toMatch(
        new RegExp(`^error: Failed to answer GET ${upstream.origin}/upstream/greeting for test "${testId}" from its scenario: Failed to read the session of test "${testId}" in Redis: Redis is unreachable .*fails with a network error \\(unhandled: 'error'\\)`),
      );

      const ready = connected.next('ready');
      await server.start();
      await ready;
      const after = await control(harness, 'POST', '/__scenario__', testId, { scenario: 'friendly', variant: 'again' });
      expect(after.status).toBe(200);
      expect(await (await control(harness, 'GET', '/__scenario__', testId)).json()).toEqual({ testId, scenarioId: 'friendly', scenarioName: 'Friendly', variant: 'again' });
      expect(await appCall(harness, testId, `${upstream.origin}/upstream/greeting`)).toEqual({ greeting: 'hi, friend' });
    });

    test(`[${kind}] with unhandled: 'warn' a call while Redis is down goes to the real API, and the log says why`, async () => {
      const { harness, server, logger, connected } = await setUp(kind, { unhandled: 'warn', timeoutMs: 300 });
      const lost = connected.next('reconnecting');
      await server.stop();
      await lost;
      expect(await appCall(harness, randomUUID(), `${upstream.origin}/upstream/greeting`)).toEqual({ greeting: REAL_GREETING });
      expect(logger.lines).toHaveLength(1);
      expect(logger.lines[0]).toMatch(/^error: Failed to answer GET .* in Redis: Redis is unreachable \(no answer within 300 ms\).*goes to the real network/);
    });
  }

  test("a test's own mocks on Redis: RegExps kept as data, sequences stepped in Redis, a response function refused naming its field", async () => {
    const { harness } = await setUp('ioredis', { unhandled: 'error' });
    const testId = randomUUID();
    expect(await harness.useMocks(testId, [{ method: 'GET', url: /^https:\/\/api\.example\.test\/pl/, sequence: { responses: [{ body: { v: 'first' } }, { body: { v: 'then' } }] } }])).toBe(1);
    expect(await appCall(harness, testId, `${API}/plain`)).toEqual({ v: 'first' });
    expect(await appCall(harness, testId, `${API}/plain`)).toEqual({ v: 'then' });
    const refused = await harness.useMocks(testId, [{ url: `${API}/plain`, response: () => ({ status: 200 }) }]).catch((error: unknown) => error);
    expect((refused as Error).message).toMatch(/^Failed to keep the test's mocks in Redis: mocks\[0\]\.response is a function/);
    expect(await (await control(harness, 'GET', '/__harness__/mocks', testId)).json()).toEqual({ testId, mocks: [{ method: 'GET', url: { regex: { source: '^https:\\/\\/api\\.example\\.test\\/pl' } }, sequence: { responses: [{ body: { v: 'first' } }, { body: { v: 'then' } }] } }] });
  });

  test('the default timeout bounds a switch while Redis is down to about 2 s', async () => {
    const { harness, server, connected } = await setUp('node-redis', { unhandled: 'error' });
    const lost = connected.next('reconnecting');
    await server.stop();
    await lost;
    const started = performance.now();
    const response = await control(harness, 'POST', '/__scenario__', randomUUID(), { scenario: 'friendly' });
    const elapsed = performance.now() - started;
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: string }).error).toContain('no answer within 2000 ms');
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeLessThan(4000);
  });
}
