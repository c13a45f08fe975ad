import { randomUUID } from 'node:crypto';
import { createMemoryStore } from 'scenario-harness';
import { afterEach, expect, test, vi } from 'vitest';
import { defineStoreSuite } from '../conformance/store-suite.js';

defineStoreSuite({
  name: 'memory',
  async create({ ttlSeconds }) {
    const store = createMemoryStore({ idleTimeoutMs: ttlSeconds * 1000 });
    return { store, peer: store, close: async () => {} };
  },
});

afterEach(() => {
  vi.useRealTimers();
});

test('the memory store drops a session idle longer than idleTimeoutMs, and a read renews it', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  const start = Date.now();
  const store = createMemoryStore({ idleTimeoutMs: 1000 });
  const [kept, dropped] = [randomUUID(), randomUUID()];
  await store.activate(kept, { scenarioId: 'a' });
  await store.activate(dropped, { scenarioId: 'b' });
  vi.setSystemTime(start + 800);
  await store.read(kept);
  vi.setSystemTime(start + 1600);
  expect((await store.read(kept))?.active).toEqual({ scenarioId: 'a' });
  expect(await store.read(dropped)).toBeUndefined();
});

test('the memory store lists the most recently used test IDs first, skips idle ones, and listing renews none', async () => {
  let now = 0;
  const store = createMemoryStore({ idleTimeoutMs: 1000, now: () => now });
  for (const testId of ['a', 'b', 'c']) {
    await store.activate(testId, { scenarioId: 'x' });
    now += 100;
  }
  await store.read('a');
  expect((await store.listSessions(undefined, 10)).sessions.map(({ testId }) => testId)).toEqual(['a', 'c', 'b']);
  const first = await store.listSessions(undefined, 2);
  expect(first).toMatchObject({ cursor: '2', total: 3 });
  expect(await store.listSessions(first.cursor, 2)).toEqual({ sessions: [{ testId: 'b', active: { scenarioId: 'x' }, calls: 0 }], total: 3 });
  // 'b' and 'c' were last used at 100 and 200; listing them at 1150 did not renew them.
  now = 1150;
  expect((await store.listSessions(undefined, 10)).sessions.map(({ testId }) => testId)).toEqual(['a', 'c']);
  now = 1250;
  expect(await store.listSessions(undefined, 10)).toEqual({ sessions: [{ testId: 'a', active: { scenarioId: 'x' }, calls: 0 }], total: 1 });
});

test('with 5,000 live test IDs, a page of 50 (and a search) takes milliseconds', async () => {
  const store = createMemoryStore();
  for (let n = 0; n < 5000; n++) await store.activate(`t-${n}`, { scenarioId: 'x' });
  const started = performance.now();
  const page = await store.listSessions(undefined, 50);
  const found = await store.listSessions(undefined, 50, 't-4999');
  const elapsed = performance.now() - started;
  expect(page).toMatchObject({ cursor: '50', total: 5000 });
  expect(page.sessions[0]?.testId).toBe('t-4999');
  expect(found.sessions.map(({ testId }) => testId)).toEqual(['t-4999']);
  // Generous for a shared CI machine: the work is one pass over 5,000 keys, well under a millisecond here.
  expect(elapsed).toBeLessThan(100);
});

test("the own mocks of a session evicted for the count or for idling stop counting toward limits.maxTotalTestMockBytes", async () => {
  let now = 0;
  const store = createMemoryStore({ maxSessions: 2, idleTimeoutMs: 1000, now: () => now });
  const limits = { maxMocks: 10, maxBytes: 1_000, maxTotalBytes: 1_500 };
  const mock = { url: 'https://api.test/x', response: { status: 204 } };
  expect(await store.addMocks!('a', [mock], 1_000, limits)).toMatchObject({ added: true });
  expect(await store.addMocks!('b', [mock], 600, limits)).toMatchObject({ added: false, totalBytes: 1_000 });
  await store.activate('b', { scenarioId: 'x' });
  await store.activate('c', { scenarioId: 'x' });
  // Three sessions over a bound of two: 'a', the least recently used, is evicted with its mocks.
  expect(store.mockBytes).toBe(0);
  expect(await store.addMocks!('b', [mock], 900, limits)).toMatchObject({ added: true });
  now = 2_000;
  await store.read('d');
  expect(store.mockBytes).toBe(0);
  expect(store.size).toBe(0);
});
