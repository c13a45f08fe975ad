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
import { timeSequentialCalls } from './lib/time-sequential-calls.js';
import { MICRO_BODY as BODY, MICRO_URL as URL_, startMicroHarness } from './lib/micro-harness.js';

const [subject, warmupArg, nArg] = process.argv.slice(2);
const WARMUP = Number(warmupArg || 500);
const N = Number(nArg || 2000);
const BODY_TEXT = JSON.stringify(BODY);

async function setup() {
  if (subject === 'floor') {
    globalThis.fetch = async () => new Response(BODY_TEXT, { headers: { 'content-type': 'application/json' } });
    return { wrap: (fn) => fn(), stop: async () => {} };
  }
  if (subject === 'harness') return startMicroHarness(await import('scenario-harness'), 'error');
  throw new Error(`unknown runtime micro subject ${subject} (known: floor, harness)`);
}

async function main() {
  const { wrap, stop } = await setup();
  const result = await wrap(() => timeSequentialCalls({ call: globalThis.fetch, url: URL_, bodyText: BODY_TEXT, warmup: WARMUP, n: N, label: subject }));
  await stop();
  console.log(`RESULT ${JSON.stringify({ subject, n: N, warmup: WARMUP, ...result })}`);
}

main().catch((error) => {
  console.error(error?.stack ?? String(error));
  process.exit(1);
});
