/**
 * The sessions a process tree shares under register: a store joined over loopback behaves as the
 * host's own store (arguments left out stay left out), and a host that is gone or a wrong secret
 * fails calls at once as STORE_UNAVAILABLE (the control API's 503), never hangs them.
 */
import { afterAll, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/core/store/memory-store.js';
import { hostSessions, type SessionHost } from '../../src/register/process-tree/host-sessions.js';
import { joinSessions } from '../../src/register/process-tree/join-sessions.js';

const hosts: SessionHost[] = [];
afterAll(() => Promise.all(hosts.map((host) => host.close())));

async function joined() {
  const store = createMemoryStore();
  const host = await hostSessions(store);
  hosts.push(host);
  return { store, host, remote: joinSessions(host.address) };
}

test('a joined store reads and writes the host store, in one order', async () => {
  const { store, remote } = await joined();
  await remote.activate('t1', { scenarioId: 'other', variant: 'v' });
  expect(await store.read('t1')).toMatchObject({ active: { scenarioId: 'other', variant: 'v' } });
  const positions = await Promise.all([0, 1, 2].map(() => remote.advanceSequence('t1', 'mock-0', 2, 'none')));
  expect(positions).toEqual([0, 1, undefined]);
  // No generation: written unconditionally (JSON carries the missing argument as null, which must not count as a generation).
  await remote.updateState('t1', [{ key: 'items', value: 1, append: true }]);
  await remote.updateState('t1', [{ key: 'items', value: 2, append: true }], (await remote.read('t1'))!.generation);
  await remote.updateState('t1', [{ key: 'items', value: 3, append: true }], 'an older generation');
  expect((await store.read('t1'))?.state).toEqual({ items: [1, 2] });
  const page = await remote.listSessions!(undefined, 10);
  expect(page.sessions.map((session) => session.testId)).toEqual(['t1']);
  await remote.setRecording!('t1', undefined);
  await remote.end('t1');
  expect(await store.read('t1')).toBeUndefined();
  expect(await remote.read('t1')).toBeUndefined();
  await remote.close!();
});

test('a wrong secret is refused: the call fails as STORE_UNAVAILABLE at once', async () => {
  const { host } = await joined();
  const forged = joinSessions(host.address.replace(/\/[0-9a-f]+$/, `/${'0'.repeat(48)}`));
  await expect(forged.read('t1')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining('the connection closed') });
});

test('a host that is gone fails each call as STORE_UNAVAILABLE, saying the first process may have exited', async () => {
  const { host } = await joined();
  await host.close();
  const orphan = joinSessions(host.address);
  await expect(orphan.read('t1')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining('it may have exited') });
});

test('an address register did not write is refused with what to do', () => {
  expect(() => joinSessions('10.0.0.1:80/abc')).toThrow(/HARNESS_SESSION_HOST is "10\.0\.0\.1:80\/abc", which is not an address register wrote\..*unset it/);
});
