import { randomUUID } from 'node:crypto';
import type { SessionStore, SessionSummary, StateChange } from 'scenario-harness';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

/** A store under test, as `defineStoreSuite` gets it. */
export interface StoreFixture {
  store: SessionStore;
  /** A second handle on the same sessions, as another process holds it (its own connection). The memory store passes itself. */
  peer: SessionStore;
  /** Milliseconds until the store drops the session of `testId` (Redis: PTTL of its keys); omitted by stores without per-key expiry. */
  ttlMs?(testId: string): Promise<number[]>;
  close(): Promise<void>;
}

export interface StoreSuiteOptions {
  /** Shown in test names: `memory`, `redis (ioredis)`. */
  name: string;
  /**
   * A store whose sessions expire `ttlSeconds` after their last use. With `isolated`, one that
   * shares nothing with the stores made before, store-wide totals included (Redis: a prefix of its own).
   */
  create(options: { ttlSeconds: number; isolated?: string }): Promise<StoreFixture>;
}

const TTL_SECONDS = 600;

const set = (key: string, value: unknown): StateChange => ({ key, value, append: false });
const append = (key: string, value: unknown): StateChange => ({ key, value, append: true });
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/**
 * The behaviour every `SessionStore` must have (memory, Redis with node-redis, Redis with
 * ioredis). Concurrent steps go through two handles, so for Redis they are atomic across
 * connections, as they must be across processes.
 */
export function defineStoreSuite({ name, create }: StoreSuiteOptions): void {
  describe(`store conformance: ${name}`, () => {
    let fixture: StoreFixture;
    let store: SessionStore;
    let peer: SessionStore;

    beforeAll(async () => {
      fixture = await create({ ttlSeconds: TTL_SECONDS });
      ({ store, peer } = fixture);
    });
    afterAll(async () => {
      await fixture?.close();
    });

    /** Serve a sequence `times` times in a row. */
    const serve = async (testId: string, key: string, length: number, repeat: 'last' | 'cycle' | 'none', times: number) => {
      const indices: (number | undefined)[] = [];
      for (let i = 0; i < times; i++) indices.push(await (i % 2 === 0 ? store : peer).advanceSequence(testId, key, length, repeat));
      return indices;
    };

    test('reading an unknown test ID gives undefined', async () => {
      expect(await store.read(randomUUID())).toBeUndefined();
    });

    test('activate selects the scenario and variant, and another handle reads them', async () => {
      const testId = randomUUID();
      await store.activate(testId, { scenarioId: 'premium', variant: 'gold' });
      const session = await peer.read(testId);
      expect(session?.active).toEqual({ scenarioId: 'premium', variant: 'gold' });
      expect({ ...session?.state }).toEqual({});
    });

    test('a switch replaces the scenario and the variant', async () => {
      const testId = randomUUID();
      await store.activate(testId, { scenarioId: 'premium', variant: 'gold' });
      await peer.activate(testId, { scenarioId: 'basic' });
      const active = (await store.read(testId))?.active;
      expect(active).toEqual({ scenarioId: 'basic' });
      expect(Object.hasOwn(active ?? {}, 'variant')).toBe(false);
    });

    test('activate clears the state and the sequence positions, also for the scenario already active', async () => {
      const testId = randomUUID();
      for (const scenarioId of ['first', 'second', 'second']) {
        await store.updateState(testId, [set('cart.count', 2), append('items[]', 'a')]);
        expect(await serve(testId, 'checkout#0', 3, 'last', 2)).toEqual([0, 1]);
        await peer.activate(testId, { scenarioId });
        const session = await store.read(testId);
        expect(session?.active).toEqual({ scenarioId });
        expect({ ...session?.state }).toEqual({});
      }
      expect(await serve(testId, 'checkout#0', 3, 'last', 1)).toEqual([0]);
    });

    test("a 'last' sequence repeats its last response", async () => {
      expect(await serve(randomUUID(), 'seq', 3, 'last', 6)).toEqual([0, 1, 2, 2, 2, 2]);
    });

    test("a 'cycle' sequence starts over", async () => {
      expect(await serve(randomUUID(), 'seq', 3, 'cycle', 7)).toEqual([0, 1, 2, 0, 1, 2, 0]);
    });

    test("a 'none' sequence gives undefined once used up", async () => {
      expect(await serve(randomUUID(), 'seq', 2, 'none', 4)).toEqual([0, 1, undefined, undefined]);
    });

    test('a one-response sequence serves index 0 under every repeat rule', async () => {
      expect(await serve(randomUUID(), 'one', 1, 'last', 3)).toEqual([0, 0, 0]);
      expect(await serve(randomUUID(), 'one', 1, 'cycle', 3)).toEqual([0, 0, 0]);
      expect(await serve(randomUUID(), 'one', 1, 'none', 3)).toEqual([0, undefined, undefined]);
    });

    test('positions belong to one sequence key of one test ID', async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      expect(await serve(a, 'x', 5, 'last', 2)).toEqual([0, 1]);
      expect(await serve(a, 'y', 5, 'last', 1)).toEqual([0]);
      expect(await serve(b, 'x', 5, 'last', 1)).toEqual([0]);
      expect(await serve(a, 'x', 5, 'last', 1)).toEqual([2]);
    });

    test('100 concurrent advances on a 100-step sequence each get a different index exactly once', async () => {
      const testId = randomUUID();
      const indices = await Promise.all(range(100).map((i) => (i % 2 === 0 ? store : peer).advanceSequence(testId, 'race', 100, 'none')));
      expect([...indices].sort((x, y) => x! - y!)).toEqual(range(100));
      expect(await store.advanceSequence(testId, 'race', 100, 'none')).toBeUndefined();
    });

    test("100 concurrent advances on a 10-step 'cycle' sequence serve every index 10 times", async () => {
      const testId = randomUUID();
      const indices = await Promise.all(range(100).map((i) => (i % 2 === 0 ? store : peer).advanceSequence(testId, 'race', 10, 'cycle')));
      const counts = new Map<number | undefined, number>();
      for (const index of indices) counts.set(index, (counts.get(index) ?? 0) + 1);
      expect([...counts.entries()].sort(([x], [y]) => x! - y!)).toEqual(range(10).map((i) => [i, 10]));
    });

    test('concurrent setState appends and merges lose nothing', async () => {
      const testId = randomUUID();
      await Promise.all(
        range(100).map((i) => (i % 2 === 0 ? store : peer).updateState(testId, [append('items', i), set(`key.${i}`, i), set('last', 'any')])),
      );
      const state = (await store.read(testId))!.state;
      expect([...(state.items as number[])].sort((x, y) => x - y)).toEqual(range(100));
      for (const i of range(100)) expect(state[`key.${i}`]).toBe(i);
      expect(Object.keys(state)).toHaveLength(102);
    });

    test('setState merges keys, overwrites them, and appends', async () => {
      const testId = randomUUID();
      await store.updateState(testId, [set('a', 1), set('b', { nested: [1, { deep: true }] }), append('list', 'x')]);
      await peer.updateState(testId, [set('a', 2), append('list', 'y'), append('list', ['an', 'array']), append('scalar', 'first')]);
      await store.updateState(testId, [append('scalar', 'second'), set('empty', []), append('empty', 1), set('text', '[not an array'), append('text', 2)]);
      await store.updateState(testId, []);
      expect({ ...(await peer.read(testId))?.state }).toEqual({
        a: 2,
        b: { nested: [1, { deep: true }] },
        list: ['x', 'y', ['an', 'array']],
        scalar: ['first', 'second'],
        empty: [1],
        text: ['[not an array', 2],
      });
    });

    test('state values of every JSON type come back as they went in', async () => {
      const testId = randomUUID();
      const values: Record<string, unknown> = {
        null: null, true: true, false: false, zero: 0, negative: -1.5, big: 2 ** 53 - 1, string: 'say "hi"\n\\ 🎉',
        emptyString: '', emptyArray: [], emptyObject: {}, nested: { a: [{ b: null }], c: 'd' },
      };
      await store.updateState(testId, Object.entries(values).map(([key, value]) => set(key, value)));
      const state = (await peer.read(testId))!.state;
      expect({ ...state }).toEqual(values);
      expect(state.emptyArray).toEqual([]);
      expect(Array.isArray(state.emptyArray)).toBe(true);
    });

    test('state keys with dots, __proto__ and any other characters stay ordinary keys', async () => {
      const testId = randomUUID();
      const keys = ['cart.total', 'a.b.c', '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', '', 'a', 'v', 's:x', 'p:x', 'items[]x', ' spaced ', 'line\nbreak', 'ünï 🎉', '{braces}', '*?[glob]'];
      await store.updateState(testId, keys.map((key, i) => set(key, { i })));
      await peer.updateState(testId, [set('evil', JSON.parse('{"__proto__":{"polluted":true}}'))]);
      const state = (await store.read(testId))!.state;
      expect(Object.keys(state).sort()).toEqual([...keys, 'evil'].sort());
      keys.forEach((key, i) => {
        expect(Object.hasOwn(state, key)).toBe(true);
        expect(state[key]).toEqual({ i });
      });
      expect(Object.getPrototypeOf(state) === null || Object.getPrototypeOf(state) === Object.prototype).toBe(true);
      expect(Object.hasOwn(state.evil as object, '__proto__')).toBe(true);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(await serve(testId, 'x', 3, 'last', 2)).toEqual([0, 1]);
    });

    test('test IDs such as __proto__ and constructor are ordinary test IDs', async () => {
      const ids = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', `{${randomUUID()}}:*`];
      await Promise.all(ids.map((testId) => store.end(testId)));
      await Promise.all(ids.map((testId, i) => store.activate(testId, { scenarioId: `scenario-${i}` })));
      await Promise.all(ids.map((testId, i) => peer.updateState(testId, [set('__proto__', i)])));
      for (const [i, testId] of ids.entries()) {
        const session = await peer.read(testId);
        expect(session?.active).toEqual({ scenarioId: `scenario-${i}` });
        expect(session?.state.__proto__).toBe(i);
      }
      await Promise.all(ids.map((testId) => store.end(testId)));
      for (const testId of ids) expect(await peer.read(testId)).toBeUndefined();
    });

    test('sessions of different test IDs never see each other', async () => {
      const ids = range(20).map(() => randomUUID());
      await Promise.all(ids.map((testId, i) => (i % 2 ? store : peer).activate(testId, { scenarioId: `s${i}`, variant: `v${i}` })));
      await Promise.all(ids.map((testId, i) => (i % 2 ? peer : store).updateState(testId, [set('me', i), append('log', i)])));
      const sessions = await Promise.all(ids.map((testId) => store.read(testId)));
      sessions.forEach((session, i) => {
        expect(session?.active).toEqual({ scenarioId: `s${i}`, variant: `v${i}` });
        expect({ ...session?.state }).toEqual({ me: i, log: [i] });
      });
    });

    test('end forgets the scenario, the state and the sequence positions', async () => {
      const testId = randomUUID();
      await store.activate(testId, { scenarioId: 'premium', variant: 'gold' });
      await store.updateState(testId, [set('k', 1)]);
      expect(await serve(testId, 'seq', 3, 'last', 2)).toEqual([0, 1]);
      await peer.end(testId);
      expect(await store.read(testId)).toBeUndefined();
      expect(await serve(testId, 'seq', 3, 'last', 1)).toEqual([0]);
      await store.end(randomUUID());
    });

    test('a state write made with the generation read before a switch (or an end) is dropped; one with the current generation lands', async () => {
      const testId = randomUUID();
      await store.activate(testId, { scenarioId: 'alpha' });
      const before = (await store.read(testId))!.generation;
      expect(typeof before).toBe('string');
      await peer.activate(testId, { scenarioId: 'beta' });
      await store.updateState(testId, [set('late', 1)], before);
      const after = (await store.read(testId))!;
      expect({ ...after.state }).toEqual({});
      expect(after.generation).not.toBe(before);
      await store.updateState(testId, [set('now', 2)], after.generation);
      expect({ ...(await peer.read(testId))!.state }).toEqual({ now: 2 });
      await peer.end(testId);
      await store.updateState(testId, [set('ended', 3)], after.generation);
      expect(await store.read(testId)).toBeUndefined();
      // A session that was never switched has generation '' and takes writes made with it.
      const fresh = randomUUID();
      await store.updateState(fresh, [set('k', 1)], (await store.read(fresh))?.generation ?? '');
      expect({ ...(await peer.read(fresh))!.state }).toEqual({ k: 1 });
    });

    const entry = (n: number) => ({ at: new Date(0).toISOString(), method: 'GET', url: `https://api.x.test/${n}`, requestHeaders: {}, answered: true, durationMs: n });

    test('the journal keeps the last entries in order, survives a switch, and is dropped with the test', async () => {
      const testId = randomUUID();
      expect(await store.readCalls!(testId)).toEqual([]);
      await store.activate(testId, { scenarioId: 'alpha' });
      for (const n of range(7)) await (n % 2 === 0 ? store : peer).appendCall!(testId, entry(n), 5);
      expect((await peer.readCalls!(testId)).map((call) => call.durationMs)).toEqual([2, 3, 4, 5, 6]);
      await peer.activate(testId, { scenarioId: 'beta' });
      await store.updateState(testId, [set('k', 1)]);
      expect((await store.readCalls!(testId)).length).toBe(5);
      expect((await store.read(testId))?.active).toEqual({ scenarioId: 'beta' });
      await peer.clearCalls!(testId);
      expect(await store.readCalls!(testId)).toEqual([]);
      expect({ ...(await store.read(testId))?.state }).toEqual({ k: 1 });
      await store.appendCall!(testId, entry(9), 5);
      await peer.end(testId);
      expect(await store.readCalls!(testId)).toEqual([]);
      expect(await store.read(testId)).toBeUndefined();
    });

    test('concurrent journal writes of one test lose nothing up to the bound; other tests never see them', async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      await Promise.all(range(40).map((n) => (n % 2 === 0 ? store : peer).appendCall!(n % 4 < 2 ? a : b, entry(n), 100)));
      expect((await store.readCalls!(a)).map((call) => call.durationMs).sort((x, y) => x - y)).toEqual(range(40).filter((n) => n % 4 < 2));
      expect((await store.readCalls!(b)).length).toBe(20);
    });

    test('listSessions pages through the live test IDs containing the search (any case), each once, with its scenario, journal size and newest call', async (context) => {
      if (store.listSessions === undefined) return context.skip('this store cannot list sessions');
      const tag = randomUUID().slice(0, 8);
      const ids = range(24).map((n) => `list-${tag}-${n}`);
      for (const [n, testId] of ids.entries()) {
        // A third switched (one with a variant), a third only called (a journal, no session), a third only wrote state.
        if (n % 3 === 0) await store.activate(testId, n === 0 ? { scenarioId: 'premium', variant: 'gold' } : { scenarioId: 'basic' });
        if (n % 3 !== 2) for (const k of range((n % 4) + (n % 3))) await peer.appendCall!(testId, { ...entry(k), at: new Date(k * 1000).toISOString() }, 10);
        if (n % 3 === 2) await store.updateState(testId, [set('k', n)]);
      }
      await store.activate(`LIST-${tag}-Upper`, { scenarioId: 'basic' });
      const ended = `list-${tag}-ended`;
      await store.activate(ended, { scenarioId: 'basic' });
      await store.end(ended);

      const listed: SessionSummary[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 100; pages++) {
        const page = await peer.listSessions!(cursor, 5, `LIST-${tag}`);
        listed.push(...page.sessions);
        cursor = page.cursor;
        if (cursor === undefined) break;
        expect(cursor).toMatch(/^\d+$/);
      }
      expect(cursor).toBeUndefined();
      expect(listed.map(({ testId }) => testId).sort()).toEqual([...ids, `LIST-${tag}-Upper`].sort());
      const byId = new Map(listed.map((summary) => [summary.testId, summary]));
      expect(byId.get(ids[0]!)).toEqual({ testId: ids[0], active: { scenarioId: 'premium', variant: 'gold' }, calls: 0 });
      expect(byId.get(ids[3]!)).toEqual({ testId: ids[3], active: { scenarioId: 'basic' }, calls: 3, lastCallAt: new Date(2000).toISOString() });
      expect(byId.get(ids[1]!)).toEqual({ testId: ids[1], calls: 2, lastCallAt: new Date(1000).toISOString() });
      expect(byId.get(ids[2]!)).toEqual({ testId: ids[2], calls: 0 });

      const one = await store.listSessions(undefined, 100, `${tag}-1`);
      expect(one.sessions.map(({ testId }) => testId).sort()).toEqual(ids.filter((id) => id.startsWith(`list-${tag}-1`)).sort());
      expect((await store.listSessions(undefined, 100, `${tag}-nobody`)).sessions).toEqual([]);
    });

    test('recording: the mode is part of the session on every handle and survives a switch; exchanges from every handle are kept in order, read and cleared, and dropped with the test', async () => {
      const testId = randomUUID();
      const exchange = (n: number) => ({ request: { method: 'GET', url: `https://api.x.test/${n}`, headers: {} }, response: { status: 200, headers: {}, body: String(n) } });
      await store.activate(testId, { scenarioId: 'alpha' });
      await store.setRecording!(testId, 'missing');
      expect((await peer.read(testId))?.recording).toBe('missing');
      await peer.activate(testId, { scenarioId: 'beta' });
      expect(await store.read(testId)).toMatchObject({ active: { scenarioId: 'beta' }, recording: 'missing' });
      for (const n of range(4)) await (n % 2 === 0 ? store : peer).appendRecorded!(testId, exchange(n), 3);
      expect((await peer.readRecorded!(testId)).map((e) => e.response.body)).toEqual(['1', '2', '3']);
      expect((await store.readRecorded!(testId, { clear: true })).length).toBe(3);
      expect(await peer.readRecorded!(testId)).toEqual([]);
      await store.setRecording!(testId, undefined);
      expect((await peer.read(testId))?.recording).toBeUndefined();
      await store.appendRecorded!(testId, exchange(9), 3);
      await peer.end(testId);
      expect(await store.readRecorded!(testId)).toEqual([]);
    });

    test('a session written only by setState or a sequence has state and no active scenario', async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      await store.updateState(a, [set('k', 'v')]);
      await store.advanceSequence(b, 'seq', 2, 'last');
      const [sessionA, sessionB] = [await peer.read(a), await peer.read(b)];
      expect(sessionA?.active).toBeUndefined();
      expect({ ...sessionA?.state }).toEqual({ k: 'v' });
      expect(sessionB?.active).toBeUndefined();
      expect({ ...sessionB?.state }).toEqual({});
    });

    test('a state once read stays as it was', async () => {
      const testId = randomUUID();
      await store.updateState(testId, [set('n', 1), append('list', 1)]);
      const before = (await store.read(testId))!.state;
      await store.updateState(testId, [set('n', 2), append('list', 2)]);
      expect({ ...before }).toEqual({ n: 1, list: [1] });
    });

    test('every write and read gives the session the configured time to live', async (context) => {
      if (fixture.ttlMs === undefined) return context.skip('this store has no per-key expiry');
      const ttlMs = fixture.ttlMs.bind(fixture);
      const testId = randomUUID();
      const inRange = async () => {
        const ttls = await ttlMs(testId);
        expect(ttls.length).toBeGreaterThan(0);
        for (const ttl of ttls) {
          expect(ttl).toBeGreaterThan(TTL_SECONDS * 1000 - 60_000);
          expect(ttl).toBeLessThanOrEqual(TTL_SECONDS * 1000);
        }
      };
      await store.updateState(testId, [set('k', 1)]);
      await inRange();
      await store.end(testId);
      await store.advanceSequence(testId, 'seq', 2, 'last');
      await inRange();
      await store.activate(testId, { scenarioId: 'x' });
      await inRange();
      await store.read(testId);
      await inRange();
      await store.end(testId);
      expect(await ttlMs(testId)).toEqual([]);
    });

    /** A test's own mocks: optional store methods (a store without them answers 501 on their endpoint). */
    const LIMITS = { maxMocks: 5, maxBytes: 10_000 };
    const mock = (n: number) => ({ url: `https://api.test/${n}`, response: { status: 200 + n } });

    test("a test's own mocks are added in one step, read back oldest first by another handle, and versioned", async (context) => {
      if (store.addMocks === undefined) return context.skip('this store keeps no per-test mocks');
      const testId = randomUUID();
      expect((await store.read(testId))?.mocks).toBeUndefined();
      const first = await store.addMocks(testId, [mock(1), mock(2)], 100, LIMITS);
      expect(first).toEqual({ added: true, count: 2, version: expect.any(String) });
      const second = await peer.addMocks!(testId, [mock(3)], 50, LIMITS);
      expect(second).toMatchObject({ added: true, count: 3 });
      const version = (second as { version: string }).version;
      expect(version).not.toBe((first as { version: string }).version);
      expect((await peer.read(testId))?.mocks).toBe(version);
      expect(await store.readMocks!(testId)).toEqual({ version, mocks: [mock(1), mock(2), mock(3)] });
      // A session ended and begun again gets a version never seen before.
      await store.end(testId);
      expect(await peer.readMocks!(testId)).toBeUndefined();
      const again = await store.addMocks(testId, [mock(1)], 10, LIMITS);
      expect([(first as { version: string }).version, version]).not.toContain((again as { version: string }).version);
    });

    test('past the count or the bytes, nothing is added, and concurrent adds keep to the bound', async (context) => {
      if (store.addMocks === undefined) return context.skip('this store keeps no per-test mocks');
      const testId = randomUUID();
      await store.addMocks(testId, [mock(1), mock(2), mock(3), mock(4)], 9_000, LIMITS);
      expect(await store.addMocks(testId, [mock(5), mock(6)], 10, LIMITS)).toEqual({ added: false, count: 4, bytes: 9_000 });
      expect(await store.addMocks(testId, [mock(5)], 1_001, LIMITS)).toEqual({ added: false, count: 4, bytes: 9_000 });
      expect((await store.readMocks!(testId))?.mocks).toHaveLength(4);
      const racing = randomUUID();
      const results = await Promise.all(range(10).map((i) => (i % 2 === 0 ? store : peer).addMocks!(racing, [mock(i)], 10, LIMITS)));
      expect(results.filter((result) => result.added)).toHaveLength(5);
      expect((await store.readMocks!(racing))?.mocks).toHaveLength(5);
    });

    test("the own mocks of all tests keep to maxTotalBytes together: past it nothing is added and the refusal says what they hold; an end or a reset frees a test's share", async (context) => {
      if (store.addMocks === undefined) return context.skip('this store keeps no per-test mocks');
      const own = await create({ ttlSeconds: TTL_SECONDS, isolated: randomUUID() });
      try {
        const [first, second] = [own.store, own.peer];
        const limits = { maxMocks: 5, maxBytes: 1_000, maxTotalBytes: 2_500 };
        const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
        expect(await first.addMocks!(a, [mock(1)], 1_000, limits)).toMatchObject({ added: true, count: 1 });
        expect(await second.addMocks!(b, [mock(2)], 1_000, limits)).toMatchObject({ added: true, count: 1 });
        expect(await first.addMocks!(c, [mock(3)], 600, limits)).toEqual({ added: false, count: 0, bytes: 0, totalBytes: 2_000 });
        expect(await second.readMocks!(c)).toBeUndefined();
        // Past the test's own bound as well: that one is named, as it is the test's to fix.
        expect(await first.addMocks!(a, [mock(4)], 600, limits)).toEqual({ added: false, count: 1, bytes: 1_000 });
        // Past its own bound only: nothing is added, and the total is not left counting it.
        expect(await first.addMocks!(b, [mock(4)], 100, limits)).toEqual({ added: false, count: 1, bytes: 1_000 });
        expect(await first.addMocks!(c, [mock(3)], 500, limits)).toMatchObject({ added: true, count: 1 });
        await second.end(a);
        expect(await first.addMocks!(c, [mock(5)], 400, limits)).toMatchObject({ added: true, count: 2 });
        await second.resetMocks!(b);
        expect(await first.addMocks!(b, [mock(6)], 1_000, limits)).toMatchObject({ added: true, count: 1 });
        // 1,900 held: of ten tests racing for 600 more, exactly one gets them.
        const racing = range(10).map(() => randomUUID());
        const results = await Promise.all(racing.map((testId, i) => (i % 2 === 0 ? first : second).addMocks!(testId, [mock(i)], 600, limits)));
        expect(results.filter((result) => result.added)).toHaveLength(1);
        expect(results.filter((result) => !result.added)).toEqual(range(9).map(() => ({ added: false, count: 0, bytes: 0, totalBytes: 2_500 })));
      } finally {
        await own.close();
      }
    });

    test('state keeps to maxBytes (keys and JSON values, in UTF-8 bytes): a write past it changes nothing and says what the state holds and what it would add; writes that shrink it land; a switch empties it', async () => {
      const testId = randomUUID();
      const limits = { maxBytes: 100 };
      const refused = (bytes: number, adding: number) => ({ refused: true, bytes, adding });
      // "a" + "xxx…" (42) = 43; "list" + [1] = 7, then [1,2] = 9.
      expect(await store.updateState(testId, [set('a', 'x'.repeat(40))], undefined, limits)).toBeUndefined();
      expect(await peer.updateState(testId, [append('list', 1)], undefined, limits)).toBeUndefined();
      expect(await store.updateState(testId, [append('list', 2)], undefined, limits)).toBeUndefined();
      expect(await peer.updateState(testId, [set('b', 'y'.repeat(50))], undefined, limits)).toEqual(refused(52, 53));
      // A batch lands whole or not at all.
      expect(await store.updateState(testId, [set('c', 1), set('d', 'z'.repeat(60))], undefined, limits)).toEqual(refused(52, 65));
      expect({ ...(await peer.read(testId))!.state }).toEqual({ a: 'x'.repeat(40), list: [1, 2] });
      // A key written again counts once, at its new size.
      expect(await peer.updateState(testId, [set('a', 'x'), set('b', 'y'.repeat(50))], undefined, limits)).toBeUndefined();
      // Already past a lower bound: what shrinks the state lands, what grows it does not.
      expect(await store.updateState(testId, [set('b', 'y')], undefined, { maxBytes: 10 })).toBeUndefined();
      expect(await store.updateState(testId, [append('list', 3)], undefined, { maxBytes: 10 })).toEqual(refused(17, 2));
      // Appends to a value and to an empty list, and characters of more than one byte.
      await peer.updateState(testId, [set('n', 5), set('e', [])]);
      await store.updateState(testId, [append('n', 6), append('e', 'q'), set('é', 'ü')]);
      expect(await peer.updateState(testId, [set('big', 'w'.repeat(1000))], undefined, limits)).toEqual(refused(35, 1005));
      expect({ ...(await store.read(testId))!.state }).toEqual({ a: 'x', list: [1, 2], b: 'y', n: [5, 6], e: ['q'], é: 'ü' });
      // A switch empties the state and its size; a write without a generation (null, as over JSON) lands.
      await peer.activate(testId, { scenarioId: 'next' });
      expect(await store.updateState(testId, [set('big', 'w'.repeat(90))], null, limits)).toBeUndefined();
      expect(await peer.updateState(testId, [set('more', 12)], null, limits)).toEqual(refused(95, 6));
    });

    test("a switch keeps a test's own mocks and starts their sequences over; removing them keeps the scenario's positions", async (context) => {
      if (store.addMocks === undefined) return context.skip('this store keeps no per-test mocks');
      const testId = randomUUID();
      await store.addMocks(testId, [mock(1)], 10, LIMITS);
      expect(await serve(testId, '(test)#0', 3, 'last', 2)).toEqual([0, 1]);
      await peer.activate(testId, { scenarioId: 'next' });
      expect((await store.readMocks!(testId))?.mocks).toEqual([mock(1)]);
      expect(await serve(testId, '(test)#0', 3, 'last', 1)).toEqual([0]);
      expect(await serve(testId, 'next#0', 3, 'last', 1)).toEqual([0]);
      await peer.resetMocks!(testId);
      expect(await store.readMocks!(testId)).toBeUndefined();
      expect((await store.read(testId))?.mocks).toBeUndefined();
      expect((await store.read(testId))?.active).toEqual({ scenarioId: 'next' });
      expect(await serve(testId, '(test)#0', 3, 'last', 1)).toEqual([0]);
      expect(await serve(testId, 'next#0', 3, 'last', 1)).toEqual([1]);
    });
  });
}
