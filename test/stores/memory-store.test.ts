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
