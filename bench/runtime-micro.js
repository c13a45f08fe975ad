// Child process on Bun or Deno: micro-benchmark of ONE subject, as bench/micro.js does on Node.
//   bun --tsconfig-override=test/runtimes/fixtures/bun-tsconfig.json bench/runtime-micro.js <subject> <warmup> <n>
//   deno run --allow-all --no-lock bench/runtime-micro.js <subject> <warmup> <n>
// Sequential `await fetch(URL)` + reading the JSON body, N times after a warm-up. Plain
// JavaScript that both runtimes run unchanged; it imports the package by its published name
// (the built dist/, through the package's exports map), as an app on these runtimes does.
// subjects:
//   floor    globalThis.fetch replaced by a function returning a Response (the bare patched fetch)
//   harness  scenario-harness (createHarness + start), each call inside harness.run(testId, ...),
//            answered by a scenario's mock
// Prints one line `RESULT {json}` on stdout (the harness's start-up line goes there too);
// bench/runtimes.js reads it.
import { setImmediate } from 'node:timers';

const [subject, warmupArg, nArg] = process.argv.slice(2);
const WARMUP = Number(warmupArg || 500);
const N = Number(nArg || 2000);
const URL_ = 'https://api.bench.test/micro/ping';
const BODY = { ok: true };
const BODY_TEXT = JSON.stringify(BODY);
const TEST_ID = 'micro-test';
// As in bench/micro.js: calls answered in memory never leave the microtask queue, so work a
// runtime defers to the event loop would pile up for the whole run. A real app turns its event
// loop between requests; the loop turns it every YIELD_EVERY calls and counts that time.
const YIELD_EVERY = 100;
const turnEventLoop = () => new Promise((resolve) => setImmediate(resolve));
/** Milliseconds, sub-microsecond resolution on both runtimes (the Web API they share). */
const now = () => globalThis.performance.now();

async function setup() {
  if (subject === 'floor') {
    globalThis.fetch = async () => new Response(BODY_TEXT, { headers: { 'content-type': 'application/json' } });
    return { wrap: (fn) => fn(), stop: async () => {} };
  }
  if (subject === 'harness') {
    const { createHarness, defineScenarios } = await import('scenario-harness');
    const harness = createHarness({
      enabled: true,
      scenarios: defineScenarios({
        default: { name: 'Default', mocks: [] },
        micro: { name: 'Micro', mocks: [{ method: 'GET', url: URL_, response: { status: 200, body: BODY } }] },
      }),
      unhandled: 'error',
    });
    await harness.start();
    await harness.switchScenario(TEST_ID, 'micro');
    return { wrap: (fn) => harness.run(TEST_ID, fn), stop: () => harness.stop() };
  }
  throw new Error(`unknown runtime micro subject ${subject} (known: floor, harness)`);
}

async function main() {
  const { wrap, stop } = await setup();
  const result = await wrap(async () => {
    // Check the answer before timing anything: a subject that is not answered is not measured.
    const first = await fetch(URL_);
    const firstBody = await first.text();
    if (first.status !== 200 || JSON.stringify(JSON.parse(firstBody)) !== BODY_TEXT) {
      throw new Error(`${subject}: unexpected response ${first.status} ${firstBody}`);
    }
    for (let i = 0; i < WARMUP; i++) {
      const r = await fetch(URL_);
      await r.json();
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await turnEventLoop();
    }
    const times = new Float64Array(N);
    let bad = 0;
    const t0 = now();
    let prev = t0;
    for (let i = 0; i < N; i++) {
      const r = await fetch(URL_);
      const j = await r.json();
      if (j.ok !== true) bad++;
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await turnEventLoop();
      const t = now();
      times[i] = (t - prev) * 1000;
      prev = t;
    }
    const totalUs = (now() - t0) * 1000;
    times.sort();
    return { meanUs: totalUs / N, p50Us: times[Math.floor(N * 0.5)], p99Us: times[Math.min(N - 1, Math.floor(N * 0.99))], bad };
  });
  await stop();
  console.log(`RESULT ${JSON.stringify({ subject, n: N, warmup: WARMUP, ...result })}`);
}

main().catch((error) => {
  console.error(error?.stack ?? String(error));
  process.exit(1);
});
