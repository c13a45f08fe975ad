/**
 * Issue 23, item 7: a `fetch` in a worker thread escaped `unhandled: 'error'` (a real DNS lookup
 * was attempted): the harness patched the main thread only. Workers the app starts while such a
 * harness runs now get a socket guard of their own: a call to a host that is not loopback fails
 * with the harness's message, and a tripwire beneath the guard, in the worker, counts no lookup
 * and no connection. Hosts in `allowHosts` still go through.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { installTripwire } from './tripwire.js';

// Taken before the harness starts, as a CommonJS module loaded early would take it.
const { Worker: EarlyWorker } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');

const WORKER_SCRIPT = new URL('./calls-in-worker.mjs', import.meta.url);
const TRIPWIRE_KEY = "Symbol.for('scenario-harness.test.tripwire')";
/** The tripwire in the worker, through its NODE_OPTIONS: loaded before anything the harness adds, so it sits beneath the guard. */
const TRIPWIRE_OPTION = `--import=data:text/javascript,${encodeURIComponent(`globalThis[${TRIPWIRE_KEY}] = (${installTripwire.toString()})();`)}`;

const errors: string[] = [];
const harness = createHarness({
  enabled: true,
  announce: false,
  unhandled: 'error',
  allowHosts: ['db.internal'],
  logger: { info() {}, warn() {}, error: (message: string) => void errors.push(message) },
  scenarios: { default: { name: 'D', mocks: [] } },
});
beforeAll(() => harness.start());
afterAll(() => harness.stop());

interface WorkerReport {
  outcomes: string[];
  attempts: string[] | null;
  nodeOptions: string | undefined;
}

/** The worker's report, once it posted it and exited. */
function reportOf(worker: InstanceType<typeof Worker>): Promise<WorkerReport> {
  return new Promise((resolve, reject) => {
    let report: WorkerReport | undefined;
    worker.once('message', (message: WorkerReport) => (report = message));
    worker.once('error', reject);
    worker.once('exit', (code) => (report === undefined ? reject(new Error(`the worker exited with code ${code} and no report`)) : resolve(report)));
  });
}

const callsIn = (calls: { client: string; url: string }[]) => ({ workerData: { calls }, env: { ...process.env, NODE_OPTIONS: TRIPWIRE_OPTION } });

test("a worker thread's fetch and node:https calls to a host that is not loopback fail with the harness's message, looking nothing up", async () => {
  const report = await reportOf(
    new Worker(
      WORKER_SCRIPT,
      callsIn([
        { client: 'fetch', url: 'https://api.partner.example/v1/ping' },
        { client: 'node:https', url: 'https://api.partner.example/v1/ping' },
      ]),
    ),
  );
  expect(report.attempts).toEqual([]);
  for (const outcome of report.outcomes) expect(outcome).toContain('[scenario-harness] Blocked a connection to api.partner.example:443 from a worker thread');
  // A guarded worker is not reported as unguarded.
  expect(errors).toEqual([]);
});

test('a worker thread still reaches a host in allowHosts, and sees the NODE_OPTIONS the app gave it', async () => {
  const report = await reportOf(new Worker(WORKER_SCRIPT, callsIn([{ client: 'fetch', url: 'http://db.internal:5984/' }])));
  // Past the guard: the tripwire beneath it (standing in for the network) refused it.
  expect(report.attempts).toEqual(['connect db.internal']);
  expect(report.nodeOptions).toBe(TRIPWIRE_OPTION);
});

test("an eval worker's fetch fails with the harness's message, looking nothing up", async () => {
  // Node loads no --import module into eval workers: the tripwire goes in with the script, after the guard, and watches lookups (made beneath the guard).
  const script = `
    globalThis[${TRIPWIRE_KEY}] = (${installTripwire.toString()})({ connects: false });
    const chain = (error) => (error == null ? [] : [String(error.message), ...chain(error.cause)]);
    const messages = (error) => chain(error).join(' <- ');
    fetch('https://api.partner.example/v1/ping').then((r) => 'answered ' + r.status, messages).then((outcome) =>
      require('node:worker_threads').parentPort.postMessage({ outcomes: [outcome], attempts: globalThis[${TRIPWIRE_KEY}].attempts }));
  `;
  const report = await reportOf(new Worker(script, { eval: true }));
  expect(report.attempts).toEqual([]);
  expect(report.outcomes[0]).toContain('[scenario-harness] Blocked a connection to api.partner.example:443 from a worker thread');
  expect(errors).toEqual([]);
});

test("a worker of an app whose NODE_OPTIONS hold a process-wide option (which Node refuses in a worker's own NODE_OPTIONS) still starts, guarded", async () => {
  const appOptions = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = '--use-openssl-ca';
  try {
    // The tripwire through execArgv this time: the guard then comes after it, beneath nothing.
    const worker = new Worker(WORKER_SCRIPT, { workerData: { calls: [{ client: 'fetch', url: 'https://api.partner.example/v1/ping' }] }, execArgv: ['--import', TRIPWIRE_OPTION.slice('--import='.length)] });
    const report = await reportOf(worker);
    expect(report.attempts).toEqual([]);
    expect(report.outcomes[0]).toContain('[scenario-harness] Blocked a connection to api.partner.example:443 from a worker thread');
    expect(report.nodeOptions).toBe('--use-openssl-ca');
    expect(errors).toEqual([]);
  } finally {
    if (appOptions === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = appOptions;
  }
});

test('a worker made from a Worker class taken before start() is reported, since it cannot be guarded', async () => {
  await reportOf(new EarlyWorker(WORKER_SCRIPT, { workerData: { calls: [] } }));
  expect(errors.join('\n')).toContain("started without the harness's guard: it was made from a Worker class taken from node:worker_threads before harness.start()");
});
