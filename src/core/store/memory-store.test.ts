import { expect, test } from 'vitest';
import { createMemoryStore } from './memory-store.js';

/** A store on a clock the test moves by hand. */
function storeWithClock(options: { maxSessions?: number; idleTimeoutMs?: number } = {}) {
  let now = 1_000_000;
  const store = createMemoryStore({ ...options, now: () => now });
  return { store, advance: (ms: number) => void (now += ms) };
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `t-${i}`);

test('beyond maxSessions the least recently used session is evicted first', async () => {
  const { store, advance } = storeWithClock({ maxSessions: 3 });
  for (const id of ids(3)) {
    await store.activate(id, { scenarioId: id });
    advance(1);
  }
  await store.read('t-0'); // t-1 is now the least recently used
  await store.activate('t-3', { scenarioId: 't-3' });
  expect(store.size).toBe(3);
  expect(await store.read('t-1')).toBeUndefined();
  expect((await store.read('t-0'))?.active).toEqual({ scenarioId: 't-0' });
  expect((await store.read('t-2'))?.active).toEqual({ scenarioId: 't-2' });
});

test('a session unused for longer than idleTimeoutMs is gone; one used in time is kept', async () => {
  const { store, advance } = storeWithClock({ idleTimeoutMs: 1000 });
  await store.activate('idle', { scenarioId: 'a' });
  await store.activate('busy', { scenarioId: 'b' });
  advance(800);
  await store.updateState('busy', [{ key: 'k', value: 1, append: false }]);
  advance(800);
  expect(await store.read('idle')).toBeUndefined();
  expect(await store.read('busy')).toMatchObject({ active: { scenarioId: 'b' }, state: { k: 1 } });
  expect(store.size).toBe(1);
});

test('idle sessions are evicted on the next access to any session, without a timer', async () => {
  const { store, advance } = storeWithClock({ idleTimeoutMs: 1000 });
  for (const id of ids(50)) await store.activate(id, { scenarioId: 'a' });
  advance(1001);
  expect(store.size).toBe(50);
  await store.read('someone-else');
  expect(store.size).toBe(0);
});

test('the defaults are 10 000 sessions and one hour', async () => {
  const { store, advance } = storeWithClock();
  for (const id of ids(10_001)) await store.activate(id, { scenarioId: 'a' });
  expect(store.size).toBe(10_000);
  expect(await store.read('t-0')).toBeUndefined();
  advance(60 * 60 * 1000);
  expect(await store.read('t-10000')).toBeDefined();
  advance(60 * 60 * 1000 + 1);
  expect(await store.read('t-10000')).toBeUndefined();
});

test('a pinned session survives the count bound and idle time until it is released', async () => {
  const { store, advance } = storeWithClock({ maxSessions: 2, idleTimeoutMs: 1000 });
  await store.activate('in-flight', { scenarioId: 'checkout' });
  const release = store.pin('in-flight');
  for (const id of ids(5)) await store.activate(id, { scenarioId: 'other' });
  advance(5000);
  await store.activate('late', { scenarioId: 'other' });
  await store.updateState('in-flight', [{ key: 'paid', value: true, append: false }]);
  expect(await store.read('in-flight')).toMatchObject({ active: { scenarioId: 'checkout' }, state: { paid: true } });

  release();
  release(); // idempotent: a second call does not unpin someone else's pin
  advance(5000);
  await store.read('late');
  expect(await store.read('in-flight')).toBeUndefined();
});

test('pins count: a session stays pinned while any of its calls is in flight', async () => {
  const { store } = storeWithClock({ maxSessions: 1 });
  await store.activate('t', { scenarioId: 'a' });
  const first = store.pin('t');
  const second = store.pin('t');
  first();
  await store.activate('other', { scenarioId: 'b' });
  expect(await store.read('t')).toBeDefined();
  second();
  await store.activate('third', { scenarioId: 'b' });
  expect(await store.read('t')).toBeUndefined();
});

test('pinning a session that was already idle too long drops it instead of reviving it', async () => {
  const { store, advance } = storeWithClock({ idleTimeoutMs: 1000 });
  await store.activate('t', { scenarioId: 'a' });
  advance(1001);
  const release = store.pin('t');
  expect(await store.read('t')).toBeUndefined();
  release();
});

test('one test calling again and again within a millisecond keeps its place, and eviction still follows use', async () => {
  const { store, advance } = storeWithClock({ maxSessions: 2, idleTimeoutMs: 1000 });
  await store.activate('a', { scenarioId: 'a' });
  await store.activate('b', { scenarioId: 'b' });
  // 'b' is already the most recently used: reading it repeatedly in the same millisecond must not lose 'a'.
  for (let i = 0; i < 5; i++) await store.read('b');
  expect(store.size).toBe(2);
  await store.read('a'); // now 'b' is the least recently used
  await store.activate('c', { scenarioId: 'c' });
  expect(await store.read('b')).toBeUndefined();
  expect((await store.read('a'))?.active).toEqual({ scenarioId: 'a' });
  // Idle eviction still happens for the most recently used session once time moves on.
  advance(1001);
  expect(await store.read('a')).toBeUndefined();
});

test('the journal keeps exactly the newest maxEntries calls after any number of appends, and the listing counts those', async () => {
  const store = createMemoryStore();
  const entry = (n: number) => ({ at: String(n), method: 'GET', url: `https://api.test/${n}`, requestHeaders: {}, answered: true, durationMs: 0 });
  for (let n = 1; n <= 260; n++) {
    await store.appendCall!('t', entry(n), 100);
    if (n % 7 === 0 || n === 100 || n === 101 || n === 125 || n === 126) {
      const urls = (await store.readCalls!('t')).map((call) => call.url);
      const first = Math.max(1, n - 99);
      expect(urls).toEqual(Array.from({ length: n - first + 1 }, (_, i) => `https://api.test/${first + i}`));
      expect((await store.listSessions(undefined, 10)).sessions[0]).toMatchObject({ testId: 't', calls: Math.min(n, 100), lastCallAt: String(n) });
    }
  }
});

test('a journal entry goes to the session the call read; after the test ended, to a new one', async () => {
  const { store, advance } = storeWithClock({ maxSessions: 2 });
  const entry = (url: string) => ({ at: '', method: 'GET', url, requestHeaders: {}, answered: true, durationMs: 0 });
  await store.activate('a', { scenarioId: 's' });
  await store.read('a');
  await store.appendCall!('a', entry('https://x.test/1'), 10);
  await store.end('a');
  // 'a' was the newest session when it ended: the next entry starts a new session, with no scenario.
  await store.appendCall!('a', entry('https://x.test/2'), 10);
  expect((await store.readCalls!('a')).map((call) => call.url)).toEqual(['https://x.test/2']);
  expect((await store.read('a'))?.active).toBeUndefined();
  // An entry for a test that is not the newest moves it: 'b' is then the least recently used.
  advance(1);
  await store.activate('b', { scenarioId: 's' });
  advance(1);
  await store.appendCall!('a', entry('https://x.test/3'), 10);
  await store.activate('c', { scenarioId: 's' });
  expect(await store.read('b')).toBeUndefined();
  expect((await store.readCalls!('a')).map((call) => call.url)).toEqual(['https://x.test/2', 'https://x.test/3']);
});

test('while one test keeps calling, the others go as each becomes idle — not before, not later', async () => {
  const { store, advance } = storeWithClock({ idleTimeoutMs: 1000 });
  await store.activate('first', { scenarioId: 'a' });
  advance(400);
  await store.activate('second', { scenarioId: 'a' });
  await store.activate('busy', { scenarioId: 'a' });
  advance(600); // first: idle for 1000 ms, not longer
  await store.read('busy');
  expect(store.size).toBe(3);
  advance(1);
  await store.read('busy');
  expect(store.size).toBe(2);
  advance(399);
  await store.read('busy');
  expect(store.size).toBe(2);
  advance(1);
  await store.read('busy');
  expect(store.size).toBe(1);
});

test('an idle session kept only for its pin goes at the next access after its release', async () => {
  const { store, advance } = storeWithClock({ idleTimeoutMs: 1000 });
  await store.activate('in-flight', { scenarioId: 'a' });
  const release = store.pin('in-flight');
  await store.activate('busy', { scenarioId: 'a' });
  advance(800);
  await store.read('busy');
  advance(700); // in-flight: idle for 1500 ms, kept for its pin
  await store.read('busy');
  expect(store.size).toBe(2);
  release();
  await store.read('busy');
  expect(store.size).toBe(1);
});
