// Heap bytes per journal entry, for typical calls (the figure docs/journal.md states).
//
//   npm run build && node --expose-gc bench/journal-memory.js
//
// Env (optional): TESTS (default 200 test IDs), CALLS (default 50 calls per test ID; keep it at or
// under the journal's 100 entries so nothing is dropped from the ring).
// Each test ID is switched to a scenario first; then the heap is measured before and after every
// test ID makes its calls, with full GCs before each reading. The growth divided by the number of
// entries is the cost of one entry: the entry object, its copied headers and parsed body, and the
// journal array slot. The same run with `journal: false` shows what the calls cost without it
// (close to nothing: the memory store keeps no per-call data). Clearing the journals at the end
// shows the memory comes back.
import { createHarness, defineScenarios } from 'scenario-harness';

const TESTS = Number(process.env.TESTS ?? 200);
const CALLS = Number(process.env.CALLS ?? 50);
const API = 'https://api.bench.test';
if (typeof globalThis.gc !== 'function') {
  console.error('Run with node --expose-gc bench/journal-memory.js: the figures need a full garbage collection before each reading.');
  process.exit(1);
}

const scenarios = defineScenarios({
  default: {
    name: 'Default',
    mocks: [
      { id: 'get-user', method: 'GET', url: `${API}/v1/users/:id`, response: { body: { id: '{{params.id}}', name: 'Ada' } } },
      { id: 'charge', method: 'POST', url: `${API}/v1/charges`, match: { body: { currency: 'usd' } }, response: { status: 201, body: { id: 'ch_1', status: 'succeeded' } } },
    ],
  },
  checkout: { name: 'Checkout', mocks: [] },
});

/** What an SDK sends: about ten headers, a secret among them (redacted), a small JSON body. */
const headers = (n) => ({
  authorization: 'Bearer sk_test_51H8xYzABCDEFGHIJKLMNOPQRSTUVWXYZ',
  'content-type': 'application/json',
  accept: 'application/json',
  'user-agent': 'bench-sdk/1.2.3 node/20',
  'idempotency-key': `order-${n}-a1b2c3d4e5f6`,
  'x-request-id': `req_${n.toString(36).padStart(12, '0')}`,
  'x-client-version': '2024-06-20',
});
const TYPICAL = {
  'POST with a JSON body': (n) =>
    fetch(`${API}/v1/charges`, { method: 'POST', headers: headers(n), body: JSON.stringify({ amount: 5000 + n, currency: 'usd', description: `Order ${n}`, metadata: { order_id: String(n), customer: `cus_${n}` } }) }),
  'GET without a body': (n) => fetch(`${API}/v1/users/${n}`, { headers: headers(n) }),
};

const fullGc = () => {
  for (let i = 0; i < 4; i++) globalThis.gc();
};
const heap = () => {
  fullGc();
  return process.memoryUsage().heapUsed;
};

async function measure(label, call, journal) {
  const harness = createHarness({ enabled: true, scenarios, unhandled: 'bypass', announce: false, journal });
  await harness.start();
  const ids = Array.from({ length: TESTS }, (_, n) => `bench-${n}-${Math.random().toString(36).slice(2, 10)}`);
  for (const testId of ids) await harness.switchScenario(testId, 'checkout');
  // One warm-up call outside the measured tests, so code paths and caches exist before the first reading.
  await harness.run('warm-up', () => call(0)).then((response) => response.arrayBuffer());
  await harness.endTest('warm-up');
  const before = heap();
  for (const testId of ids) {
    for (let n = 0; n < CALLS; n++) await harness.run(testId, () => call(n)).then((response) => response.arrayBuffer());
  }
  // The journal write is not awaited by the call: read every journal once so all writes have landed.
  let entries = 0;
  for (const testId of ids) entries += (await harness.getCalls(testId)).length;
  const after = heap();
  for (const testId of ids) await harness.clearCalls(testId);
  const cleared = heap();
  await harness.stop();
  return { label, entries, perCall: (after - before) / (TESTS * CALLS), released: (after - cleared) / (TESTS * CALLS) };
}

async function main() {
  const rows = [];
  for (const [label, call] of Object.entries(TYPICAL)) {
    const on = await measure(label, call, undefined);
    const off = await measure(label, call, false);
    const probe = createHarness({ enabled: true, scenarios, unhandled: 'bypass', announce: false });
    await probe.start();
    await probe.run('probe', () => call(7)).then((response) => response.arrayBuffer());
    const [entry] = await probe.getCalls('probe');
    await probe.stop();
    rows.push({
      call: label,
      entries: on.entries,
      'bytes/entry (journal on)': Math.round(on.perCall),
      'bytes/call (journal off)': Math.round(off.perCall),
      'bytes/entry, net': Math.round(on.perCall - off.perCall),
      'released by clearCalls': Math.round(on.released),
      'entry as JSON (Redis)': JSON.stringify(entry).length,
    });
  }
  console.log(`Journal memory: ${TESTS} test IDs x ${CALLS} calls each, Node ${process.version}, memory store, default journal options (redaction on, bodies up to 8 KiB).`);
  console.table(rows);
}

await main();
