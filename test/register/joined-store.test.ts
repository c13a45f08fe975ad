/**
 * A store joined over loopback (register's process tree: the first process hosts a memory store,
 * the processes it starts join it) passes the whole store conformance suite, a test's own mocks
 * included: every `SessionStore` method works in every process of the tree (issue 42: `use()`
 * once answered in one process and was ignored in another). The two handles are two connections,
 * as two processes of the tree hold them. A host whose store lacks a method fails the call with
 * the method named, and the mocks endpoint says so, instead of succeeding silently.
 */
import { createHarness, createMemoryStore, defineScenarios, type SessionStore } from 'scenario-harness';
import { expect, test } from 'vitest';
import { hostSessions } from '../../src/core/store/process-tree/host-sessions.js';
import { joinSessions } from '../../src/core/store/process-tree/join-sessions.js';
import { defineStoreSuite } from '../conformance/store-suite.js';

defineStoreSuite({
  name: 'joined over loopback (a process tree under register)',
  async create({ ttlSeconds }) {
    const host = await hostSessions(createMemoryStore({ idleTimeoutMs: ttlSeconds * 1000 }));
    const [store, peer] = [joinSessions(host.address), joinSessions(host.address)];
    return {
      store,
      peer,
      close: async () => {
        await Promise.all([store.close(), peer.close()]);
        await host.close();
      },
    };
  },
});

/** The methods a store may leave out; a new one in `SessionStore` fails the typecheck until it is listed here. */
type OptionalMethod = { [Method in keyof SessionStore]-?: undefined extends SessionStore[Method] ? Method : never }[keyof SessionStore];
const OPTIONAL_METHODS: Record<OptionalMethod, true> = {
  appendCall: true,
  readCalls: true,
  clearCalls: true,
  listSessions: true,
  setRecording: true,
  appendRecorded: true,
  readRecorded: true,
  addMocks: true,
  readMocks: true,
  resetMocks: true,
  putStreamView: true,
  readStreamViews: true,
  sendStreamCommand: true,
  takeStreamCommands: true,
  close: true,
  pin: true,
};

test('a joined store has every optional method, so the suite above skipped none of their tests', () => {
  // Never connected: a store is built without reaching its host.
  const joined = joinSessions(`127.0.0.1:9/${'0'.repeat(48)}`);
  expect(Object.keys(OPTIONAL_METHODS).filter((method) => typeof joined[method as OptionalMethod] !== 'function')).toEqual([]);
});

/** A memory store without the three methods a test's own mocks need, as a store of someone's own may be. */
function storeWithoutOwnMocks(): SessionStore {
  const { addMocks: _add, readMocks: _read, resetMocks: _reset, ...rest } = createMemoryStore();
  return rest;
}

test('a host whose store has no addMocks fails the call naming the method, and use() answers 503 with that, never a silent success', async () => {
  const host = await hostSessions(storeWithoutOwnMocks());
  const joined = joinSessions(host.address);
  try {
    await expect(joined.addMocks!('t1', [{ url: 'https://api.x.test/a', response: { body: 1 } }], 40, { maxMocks: 10, maxBytes: 1000 })).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringContaining('its session store has no addMocks method'),
    });
    const harness = createHarness({ enabled: true, scenarios: defineScenarios({ default: { name: 'Default', mocks: [] } }), store: joined });
    const response = await harness.handle(
      new Request('http://127.0.0.1/__harness__/mocks', { method: 'POST', headers: { 'content-type': 'application/json', 'x-harness-test-id': 't1' }, body: JSON.stringify({ mocks: [{ url: 'https://api.x.test/a', response: { body: 1 } }] }) }),
    );
    expect(response?.status).toBe(503);
    expect(((await response?.json()) as { error: string }).error).toContain('its session store has no addMocks method');
  } finally {
    await joined.close();
    await host.close();
  }
});
