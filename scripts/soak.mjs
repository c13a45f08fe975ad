// Soak: many test IDs, each with a scenario, state and calls, against the built package; prints
// memory before, at the peak and after idle eviction. Not a test: it measures, it does not assert.
//
//   npm run build && node --expose-gc scripts/soak.mjs      (or: npm run soak)
//
// Environment (optional): SOAK_TESTS (default 10000), SOAK_CONCURRENCY (default 100).
// The memory store gets a clock the script moves by hand, so "an hour later" takes no hour.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createHarness, createMemoryStore } from 'scenario-harness';

const TESTS = Number(process.env.SOAK_TESTS ?? 10_000);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 100);
const API = 'https://api.soak.test';
const gc = globalThis.gc;
if (typeof gc !== 'function') {
  console.error('Run with node --expose-gc scripts/soak.mjs: the figures need a garbage collection before each reading.');
  process.exit(1);
}

let now = Date.now();
const IDLE_TIMEOUT_MS = 60 * 60 * 1000; // the default, passed explicitly to print it
const MAX_SESSIONS = 10_000; // the default
const store = createMemoryStore({ now: () => now, idleTimeoutMs: IDLE_TIMEOUT_MS, maxSessions: MAX_SESSIONS });
const harness = createHarness({
  enabled: true,
  store,
  unhandled: 'error',
  scenarios: {
    default: { name: 'Default', mocks: [{ url: `${API}/profile`, response: { body: { plan: 'free' } } }] },
    checkout: {
      name: 'Checkout',
      mocks: [
        { url: `${API}/profile`, response: { body: { plan: 'gold', user: '{{headers.x-user}}' } } },
        {
          method: 'POST',
          url: `${API}/events`,
          response: { status: 201, body: { ok: true } },
          afterResponse: { setState: { 'events[]': '{{body}}', last: '{{body.type}}' } },
        },
        { url: `${API}/poll`, sequence: { responses: [{ body: 'pending' }, { body: 'pending' }, { body: 'done' }] } },
      ],
    },
  },
});

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
/**
 * Memory after collecting garbage. Collects several times with timers in between: fetch bodies
 * are released by FinalizationRegistry callbacks, which only run after a collection.
 */
async function reading(label) {
  for (let i = 0; i < 5; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const { rss, heapUsed } = process.memoryUsage();
  return { label, rss, heapUsed, sessions: store.size };
}

/** One test: select a scenario, make six calls (three write state), read the state back. */
async function oneTest() {
  const testId = randomUUID();
  await harness.switchScenario(testId, 'checkout');
  await harness.run(testId, async () => {
    await (await fetch(`${API}/profile`, { headers: { 'x-user': testId } })).json();
    for (let i = 0; i < 3; i++) {
      const body = JSON.stringify({ type: `event-${i}`, payload: 'x'.repeat(200) });
      await (await fetch(`${API}/events`, { method: 'POST', body, headers: { 'content-type': 'application/json' } })).json();
    }
    for (let i = 0; i < 2; i++) await (await fetch(`${API}/poll`)).text();
  });
  const state = await harness.getState(testId);
  if (state.events.length !== 3) throw new Error(`test ${testId} lost state: ${JSON.stringify(state)}`);
}

await harness.start();
// Warm up the interceptor and the JIT, then forget those sessions, so "before" is a steady baseline.
for (let i = 0; i < 200; i++) await oneTest();
now += IDLE_TIMEOUT_MS + 1;
await harness.getState('warm-up-done');
const before = await reading('before');

let peakRss = 0;
const started = performance.now();
for (let done = 0; done < TESTS; done += CONCURRENCY) {
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, TESTS - done) }, oneTest));
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  now += 1; // sessions stay in least-recently-used order
}
const elapsed = performance.now() - started;
const peak = await reading('peak (all test IDs live)*');
peak.rss = Math.max(peak.rss, peakRss);

// An idle timeout later, the next access to the store evicts every idle session.
now += IDLE_TIMEOUT_MS + 1;
await harness.getState('after-the-idle-timeout');
const after = await reading('after idle eviction');

// The count bound: more test IDs than maxSessions never hold more than maxSessions sessions.
for (let done = 0; done < MAX_SESSIONS + 2_000; done += CONCURRENCY) {
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => harness.switchScenario(randomUUID(), 'checkout')));
}
const bounded = await reading(`after ${MAX_SESSIONS + 2_000} more test IDs`);
await harness.stop();

console.log(`scenario-harness soak: ${TESTS} test IDs, ${CONCURRENCY} at a time, 6 intercepted calls + 3 state writes each, in ${(elapsed / 1000).toFixed(1)} s`);
console.log(`memory store: maxSessions ${MAX_SESSIONS}, idleTimeoutMs ${IDLE_TIMEOUT_MS}; Node ${process.version}`);
console.log('');
console.log(`${'reading'.padEnd(32)}${'RSS'.padStart(10)}${'heap used'.padStart(12)}${'sessions'.padStart(10)}`);
for (const row of [before, peak, after, bounded]) {
  console.log(`${row.label.padEnd(32)}${mb(row.rss).padStart(10)}${mb(row.heapUsed).padStart(12)}${String(row.sessions).padStart(10)}`);
}
console.log('* RSS: the highest sampled during the run; heap: after collecting garbage with every session live.');
console.log('');
console.log(`heap held per live session at the peak: ${((peak.heapUsed - before.heapUsed) / Math.max(1, peak.sessions - before.sessions) / 1024).toFixed(2)} KB`);
console.log(`heap returned by idle eviction: ${mb(peak.heapUsed - after.heapUsed)} (RSS shrinks less: V8 keeps freed pages for reuse)`);
