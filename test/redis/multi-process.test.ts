import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startApp, stopApp, type AppProcess } from './app-process.js';
import { hasRedisServer, startRedisServer, type RedisServer } from './redis-server.js';
import { startRoundRobin, type RoundRobin } from './round-robin.js';

const HEADER = 'x-harness-test-id';
if (!hasRedisServer()) {
  test.skip('several app processes sharing a Redis store need redis-server (sudo apt-get install -y redis-server)', () => {});
} else {
  let redis: RedisServer;
  let apps: AppProcess[] = [];
  let balancer: RoundRobin;

  beforeAll(async () => {
    redis = await startRedisServer();
    // Two processes on node-redis and one on ioredis: both clients share one session layout.
    const clients = ['node-redis', 'ioredis', 'node-redis'];
    apps = await Promise.all(clients.map((client) => startApp({ REDIS_URL: redis.url, REDIS_CLIENT: client, PREFIX: 'multi:' })));
    balancer = await startRoundRobin(apps.map((app) => app.origin));
  });
  afterAll(async () => {
    await balancer?.close();
    await Promise.all(apps.map(stopApp));
    await redis?.stop();
  });

  const send = async (origin: string, testId: string, method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { [HEADER]: testId };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${origin}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  test('a switch through one process is seen by the others: scenario, variant, state and sequence order', async () => {
    const testId = randomUUID();
    const [first, second, third] = apps.map((app) => app.origin) as [string, string, string];
    expect((await send(first, testId, 'POST', '/__scenario__', { scenario: 'premium', variant: 'gold' })).status).toBe(200);
    for (const other of [second, third]) {
      expect((await send(other, testId, 'GET', '/__scenario__')).body).toEqual({ testId, scenarioId: 'premium', scenarioName: 'Premium', variant: 'gold' });
      expect((await send(other, testId, 'GET', '/greeting')).body.greeting).toBe('premium gold');
    }

    expect((await send(second, testId, 'POST', '/__scenario__', { scenario: 'counter' })).status).toBe(200);
    const served: unknown[] = [];
    const pids = new Set<unknown>();
    for (let i = 0; i < 6; i++) {
      const { body } = await send(balancer.origin, testId, 'GET', '/next');
      served.push(body.n);
      pids.add(body.pid);
    }
    expect(served).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pids.size).toBe(3);

    for (const item of ['apple', 'pear', 'fig', 'kiwi']) expect((await send(balancer.origin, testId, 'POST', '/cart', { item })).body.status).toBe(201);
    expect((await send(third, testId, 'GET', '/__harness__/state')).body).toEqual({ testId, state: { 'cart.items': ['apple', 'pear', 'fig', 'kiwi'], 'cart.last': 'kiwi' } });

    // A switch back through another process clears state and positions everywhere.
    expect((await send(third, testId, 'POST', '/__scenario__', { scenario: 'counter' })).status).toBe(200);
    expect((await send(first, testId, 'GET', '/__harness__/state')).body.state).toEqual({});
    expect((await send(second, testId, 'GET', '/next')).body.n).toBe(1);
  });

  test('30 calls in flight at once through every process each take a different step of a sequence', async () => {
    const testId = randomUUID();
    await send(balancer.origin, testId, 'POST', '/__scenario__', { scenario: 'counter' });
    const answers = await Promise.all(Array.from({ length: 30 }, () => send(balancer.origin, testId, 'GET', '/next')));
    expect(answers.map(({ body }) => body.n as number).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect((await send(balancer.origin, testId, 'GET', '/next')).body.n).toBe('done');
  });

  test('20 test IDs in parallel through the round-robin stay isolated', async () => {
    const run = async (i: number) => {
      const testId = `${randomUUID()}-${i}`;
      const premium = i % 2 === 0;
      const switched = await send(balancer.origin, testId, 'POST', '/__scenario__', premium ? { scenario: 'premium', variant: 'gold' } : { scenario: 'counter' });
      expect(switched.body).toEqual({ success: true, testId, scenarioId: premium ? 'premium' : 'counter', ...(premium ? { variant: 'gold' } : {}) });
      const greeting = (await send(balancer.origin, testId, 'GET', '/greeting')).body.greeting;
      const steps: unknown[] = [];
      for (let step = 0; step < 4; step++) steps.push((await send(balancer.origin, testId, 'GET', '/next')).body.n);
      for (const item of [`a${i}`, `b${i}`]) await send(balancer.origin, testId, 'POST', '/cart', { item });
      const state = (await send(balancer.origin, testId, 'GET', '/__harness__/state')).body.state;
      const active = (await send(balancer.origin, testId, 'GET', '/__scenario__')).body;
      return { greeting, steps, state, active: active.scenarioId };
    };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => run(i)));
    results.forEach((result, i) => {
      const premium = i % 2 === 0;
      expect(result).toEqual({
        greeting: premium ? 'premium gold' : 'default',
        steps: premium ? ['done', 'done', 'done', 'done'] : [1, 2, 3, 4],
        state: { 'cart.items': [`a${i}`, `b${i}`], 'cart.last': `b${i}` },
        active: premium ? 'premium' : 'counter',
      });
    });
  });

  test("a test's own mocks added through one process answer in all of them, each sequence step taken once, kept across a switch and removed through another", async () => {
    const testId = randomUUID();
    const [first, second, third] = apps.map((app) => app.origin) as [string, string, string];
    const mocks = [
      { method: 'GET', url: 'https://api.shop.test/next', sequence: { responses: Array.from({ length: 12 }, (_, i) => ({ body: { n: i + 1 } })), repeat: 'none' } },
      { method: 'GET', url: 'https://api.shop.test/greeting', response: { body: { greeting: 'just me' } } },
    ];
    expect((await send(first, testId, 'POST', '/__harness__/mocks', { mocks })).body).toEqual({ testId, mocks: 2 });
    expect((await send(third, testId, 'GET', '/__harness__/mocks')).body).toEqual({ testId, mocks: [...mocks].reverse() });
    for (const origin of [first, second, third]) expect((await send(origin, testId, 'GET', '/greeting')).body.greeting).toBe('just me');
    const answers = await Promise.all(Array.from({ length: 12 }, () => send(balancer.origin, testId, 'GET', '/next')));
    expect(answers.map(({ body }) => body.n as number).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    // Used up ('none'): the scenario answers the next one.
    expect((await send(balancer.origin, testId, 'GET', '/next')).body.n).toBe('done');

    expect((await send(second, testId, 'POST', '/__scenario__', { scenario: 'premium', variant: 'gold' })).status).toBe(200);
    expect((await send(third, testId, 'GET', '/greeting')).body.greeting).toBe('just me');
    expect((await send(first, testId, 'GET', '/next')).body.n).toBe(1);

    expect((await send(third, testId, 'DELETE', '/__harness__/mocks')).body).toEqual({ testId, mocks: 0 });
    for (const origin of [first, second, third]) expect((await send(origin, testId, 'GET', '/greeting')).body.greeting).toBe('premium gold');
  });

  test("the browser's calls answered through any process share the test's sequence with the server's calls, each step taken once", async () => {
    const testId = randomUUID();
    await send(balancer.origin, testId, 'POST', '/__scenario__', { scenario: 'counter' });
    const browserCall = async (origin: string) => {
      const { body } = await send(origin, testId, 'POST', '/__harness__/answer', { method: 'GET', url: 'https://api.shop.test/next', headers: { origin: 'http://shop.test' } });
      expect(body).toMatchObject({ answered: true, status: 200, headers: { 'access-control-allow-origin': 'http://shop.test' } });
      return (JSON.parse(Buffer.from(body.bodyBase64 as string, 'base64').toString()) as { n: number }).n;
    };
    const serverCall = async () => (await send(balancer.origin, testId, 'GET', '/next')).body.n as number;
    // 20 calls at once, half the page's through each process in turn, half the app's through the round-robin.
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? browserCall(apps[(i / 2) % 3]!.origin) : serverCall())));
    expect(answers.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const journal = (await send(apps[1]!.origin, testId, 'GET', '/__harness__/journal')).body.calls as { side?: string }[];
    expect(journal.filter((entry) => entry.side === 'browser')).toHaveLength(10);
  });

  test('ending a test through one process ends it in all of them', async () => {
    const testId = randomUUID();
    await send(apps[0]!.origin, testId, 'POST', '/__scenario__', { scenario: 'premium' });
    expect((await send(apps[1]!.origin, testId, 'DELETE', '/__scenario__')).body).toEqual({ success: true, testId });
    for (const app of apps) expect((await send(app.origin, testId, 'GET', '/__scenario__')).status).toBe(404);
    expect((await send(apps[2]!.origin, testId, 'GET', '/greeting')).body.greeting).toBe('default');
  });
}
