import { randomUUID } from 'node:crypto';
import { isHarnessError, type SessionStore } from 'scenario-harness';
import { createRedisStore, type IORedisLike, type RedisLike } from 'scenario-harness/redis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { defineStoreSuite } from '../conformance/store-suite.js';
import { CLIENT_KINDS, connectClient, connectNodeRedis, countRoundTrips, type ConnectedClient, type NodeRedisClient } from './clients.js';
import { hasRedisServer, startRedisServer, type RedisServer } from './redis-server.js';

/** Fails the way a STORE_UNAVAILABLE HarnessError does, with a message matching `message`. */
async function expectUnavailable(promise: Promise<unknown>, message: RegExp): Promise<void> {
  const error: unknown = await promise.then(() => undefined, (e: unknown) => e);
  expect(isHarnessError(error) && error.code).toBe('STORE_UNAVAILABLE');
  expect((error as Error).message).toMatch(message);
}

test('createRedisStore rejects what is not a Redis client, naming what it got', () => {
  expect(() => createRedisStore({ client: { get: () => 1 } as unknown as RedisLike })).toThrow(/Expected "client" to be a node-redis client .* instead got an object with keys \["get"\]/);
  expect(() => createRedisStore(undefined as unknown as { client: RedisLike })).toThrow(TypeError);
  const client: IORedisLike = { eval: async () => 1, evalsha: async () => 1 };
  expect(() => createRedisStore({ client, ttlSeconds: 0 })).toThrow(/"ttlSeconds" to be a positive number, instead got 0/);
  expect(() => createRedisStore({ client, timeoutMs: Number.NaN })).toThrow(/"timeoutMs"/);
});

test('a store call that gets no answer fails with STORE_UNAVAILABLE after timeoutMs', async () => {
  const silent: IORedisLike = { eval: () => new Promise(() => {}), evalsha: () => new Promise(() => {}) };
  const store = createRedisStore({ client: silent, timeoutMs: 50 });
  const started = performance.now();
  await expectUnavailable(store.activate('t-1', { scenarioId: 'x' }), /^Failed to activate scenario "x" for test "t-1" in Redis: Redis is unreachable \(no answer within 50 ms\)\. Check that Redis is running/);
  expect(performance.now() - started).toBeLessThan(1000);
});

test('a client that throws becomes STORE_UNAVAILABLE naming the reason', async () => {
  const broken: IORedisLike = {
    eval: async () => 1,
    evalsha: () => {
      throw new Error('Connection is closed.');
    },
  };
  await expectUnavailable(createRedisStore({ client: broken }).read('t-2'), /read the session of test "t-2" in Redis: Redis is unreachable \(Connection is closed\.\)/);
});

if (!hasRedisServer()) {
  test.skip('Redis store conformance needs redis-server (sudo apt-get install -y redis-server)', () => {});
} else {
  let server: RedisServer;
  let admin: NodeRedisClient;
  const clients: ConnectedClient[] = [];
  const connect = async (kind: (typeof CLIENT_KINDS)[number]) => {
    const connected = await connectClient(kind, server.url);
    clients.push(connected);
    return connected.client;
  };
  const prefixOf = (kind: string) => `sh-test:${kind}:`;

  beforeAll(async () => {
    server = await startRedisServer();
    admin = await connectNodeRedis(server.url);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    admin?.destroy();
    await server?.stop();
  });

  for (const kind of CLIENT_KINDS) {
    defineStoreSuite({
      name: `redis (${kind})`,
      async create({ ttlSeconds, isolated }) {
        const prefix = prefixOf(isolated === undefined ? kind : `${kind}:${isolated}`);
        const store = createRedisStore({ client: await connect(kind), prefix, ttlSeconds });
        const peer = createRedisStore({ client: await connect(kind), prefix, ttlSeconds });
        return {
          store,
          peer,
          async ttlMs(testId) {
            const ttl = await admin.pTTL(prefix + testId);
            return ttl === -2 ? [] : [ttl];
          },
          close: async () => {},
        };
      },
    });
  }

  for (const kind of CLIENT_KINDS) {
    let store: SessionStore;
    let counted: ReturnType<typeof countRoundTrips<RedisLike>>;
    const prefix = `sh-specific:${kind}:`;
    const ttlSeconds = 120;

    beforeAll(async () => {
      counted = countRoundTrips(await connect(kind));
      store = createRedisStore({ client: counted.client, prefix, ttlSeconds });
    });

    test(`[${kind}] a session is one hash under the prefix, and every key the store writes expires`, async () => {
      const testId = randomUUID();
      await store.activate(testId, { scenarioId: 'a', variant: 'b' });
      await store.updateState(testId, [{ key: 'cart.count', value: 2, append: false }]);
      await store.advanceSequence(testId, 'mock#1', 3, 'last');
      // sb: the state's size ("cart.count" and "2"), kept for limits.maxStateBytes.
      expect(await admin.hGetAll(prefix + testId)).toEqual({ g: expect.any(String), a: 'a', v: 'b', 's:cart.count': '2', sb: '11', 'p:mock#1': '1' });
      const keys = await admin.keys('*');
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        expect(key.startsWith('sh-')).toBe(true);
        expect(await admin.pTTL(key)).toBeGreaterThan(0);
      }
    });

    test(`[${kind}] the own mocks of a session that expired stop counting toward the total at the next add past it; one being added keeps its share`, async () => {
      const own = `sh-specific:${kind}:${randomUUID()}:`;
      const first = createRedisStore({ client: await connect(kind), prefix: own, ttlSeconds });
      const second = createRedisStore({ client: await connect(kind), prefix: own, ttlSeconds });
      const limits = { maxMocks: 10, maxBytes: 1_000, maxTotalBytes: 2_000 };
      const mock = { url: 'https://api.test/x', response: { status: 204 } };
      const [gone, live, late] = [randomUUID(), randomUUID(), randomUUID()];
      expect(await first.addMocks!(gone, [mock], 1_000, limits)).toMatchObject({ added: true });
      expect(await second.addMocks!(live, [mock], 800, limits)).toMatchObject({ added: true });
      // As when Redis expires an idle session: nothing tells the total.
      await admin.del(own + gone);
      // An add in flight elsewhere: marked in its session and reserved, its mocks not written yet.
      await admin.hSet(own + late, 'mp', '150');
      await admin.pExpire(own + late, ttlSeconds * 1000);
      await admin.hIncrBy(`${own}\u0000mocks`, `t:${late}`, 150);
      await admin.hIncrBy(`${own}\u0000mocks`, 'total', 150);
      expect(await first.addMocks!(randomUUID(), [mock], 900, limits)).toMatchObject({ added: true });
      expect(await admin.hGetAll(`${own}\u0000mocks`)).toMatchObject({ total: '1850', [`t:${live}`]: '800', [`t:${late}`]: '150' });
      expect(Boolean(await admin.hExists(`${own}\u0000mocks`, `t:${gone}`))).toBe(false);
      // What is held or being added is never released: past the total, nothing is added.
      expect(await second.addMocks!(randomUUID(), [mock], 400, limits)).toEqual({ added: false, count: 0, bytes: 0, totalBytes: 1_850 });
    });

    test(`[${kind}] a read renews the session's time to live`, async () => {
      const testId = randomUUID();
      await store.activate(testId, { scenarioId: 'a' });
      await admin.pExpire(prefix + testId, 5_000);
      await store.read(testId);
      expect(await admin.pTTL(prefix + testId)).toBeGreaterThan(100_000);
    });

    test(`[${kind}] every store step is one round trip once Redis has the scripts`, async () => {
      const testId = randomUUID();
      const steps: [string, () => Promise<unknown>][] = [
        ['activate', () => store.activate(testId, { scenarioId: 'a' })],
        ['read', () => store.read(testId)],
        ['advanceSequence', () => store.advanceSequence(testId, 'k', 2, 'last')],
        ['updateState', () => store.updateState(testId, [{ key: 'k', value: 1, append: true }, { key: 'j', value: 1, append: false }])],
        ['end', () => store.end(testId)],
      ];
      for (const [, step] of steps) await step();
      for (const [name, step] of steps) {
        const before = counted.count();
        await step();
        expect({ name, roundTrips: counted.count() - before }).toEqual({ name, roundTrips: 1 });
      }
    });

    test(`[${kind}] the store sends the scripts again after Redis forgot them`, async () => {
      const testId = randomUUID();
      await store.activate(testId, { scenarioId: 'a' });
      await admin.scriptFlush();
      await store.updateState(testId, [{ key: 'k', value: 'v', append: false }]);
      expect(await store.advanceSequence(testId, 's', 2, 'none')).toBe(0);
      expect({ ...(await store.read(testId))?.state }).toEqual({ k: 'v' });
    });

    test(`[${kind}] a key of another type under the prefix fails with a message naming the prefix`, async () => {
      const testId = randomUUID();
      await admin.set(prefix + testId, 'not a hash', { EX: 60 });
      await expectUnavailable(store.read(testId), new RegExp(`Redis answered with an error \\(WRONGTYPE.*prefix "${prefix}"`));
    });

    test(`[${kind}] listing renews no session, skips other keys under the prefix, and a search finds one test ID among thousands in one round trip`, async () => {
      const tag = randomUUID().slice(0, 8);
      const ids = Array.from({ length: 6000 }, (_, n) => `many-${tag}-${n}`);
      for (let start = 0; start < ids.length; start += 250) await Promise.all(ids.slice(start, start + 250).map((id) => store.activate(id, { scenarioId: 'a' })));
      await admin.set(`${prefix}many-${tag}-not-a-session`, 'x', { EX: 60 });
      // Lists beside a session other than the journal (recorded exchanges) are no test IDs of their own.
      await admin.rPush(`${prefix}${ids[0]}\u0000recorded`, '{}');
      await admin.expire(`${prefix}${ids[0]}\u0000recorded`, 60);
      await admin.pExpire(prefix + ids[5999], 50_000);
      await store.listSessions!(undefined, 1); // Redis learns the script (EVALSHA, then EVAL once)
      const before = counted.count();
      const found = await store.listSessions!(undefined, 50, `MANY-${tag}-5999`);
      expect(counted.count() - before).toBe(1);
      expect(found.sessions).toEqual([{ testId: ids[5999], active: { scenarioId: 'a' }, calls: 0 }]);
      expect(await admin.pTTL(prefix + ids[5999])).toBeLessThanOrEqual(50_000);
      const odd = await store.listSessions!(undefined, 50, `${tag}-not-a`);
      expect(odd.sessions).toEqual([]);
      expect((await store.listSessions!(undefined, 50, ids[0])).sessions.map(({ testId }) => testId)).toEqual([ids[0]]);
      await Promise.all(ids.map((id) => store.end(id)));
    });

    test(`[${kind}] a setState value of undefined removes the key, and appends as null`, async () => {
      const testId = randomUUID();
      await store.updateState(testId, [{ key: 'gone', value: 1, append: false }, { key: 'list', value: undefined, append: true }]);
      await store.updateState(testId, [{ key: 'gone', value: undefined, append: false }]);
      expect({ ...(await store.read(testId))?.state }).toEqual({ list: [null] });
    });
  }
}
