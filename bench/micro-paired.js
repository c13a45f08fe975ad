// Child process: the harness against undici's MockAgent IN ONE PROCESS, in alternating blocks.
//   node bench/micro-paired.js <pair> <warmup> <block> <rounds>
// pairs:
//   captured  Node's own fetch captured before harness.start() (as SDKs hold it), answered by
//             the harness's dispatcher, against the same fetch answered by MockAgent
//   request   the undici package's request(), answered by the harness's dispatcher, against
//             the same request() answered by MockAgent
//
// Why paired: on a shared machine the speed drifts by ±30% within a minute, so two subjects
// timed in separate processes one after the other differ by the drift, not only by what they
// cost. Here every round times a block of each, back to back (ABBA order), and the ratio of a
// round compares two blocks run seconds apart under the same conditions; the parent reports the
// median ratio over the rounds. Both sides pass their dispatcher the same way (`{ dispatcher }` in the
// call's options) and both run inside the harness's per-test context, as every call of a test
// does. On Node 20 that context's AsyncLocalStorage runs hooks for every promise either side
// makes (see micro.js for bare MockAgent in a process of its own); on 24 and later it does not.
import { timeSequentialCalls } from './lib/time-sequential-calls.js';
import { MICRO_BODY as BODY, MICRO_URL as URL_, startMicroHarness } from './lib/micro-harness.js';
import { failChild } from './lib/proc.js';

const [pair, warmupArg, blockArg, roundsArg] = process.argv.slice(2);
const WARMUP = Number(warmupArg || 10_000);
const BLOCK = Number(blockArg || 5_000);
const ROUNDS = Number(roundsArg || 12);
const BODY_TEXT = JSON.stringify(BODY);
/** Where undici (the package and Node's bundled copy) keeps the global dispatcher; the harness writes this slot. */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/** undici's request() reading the JSON body, shaped like a fetch Response for the timing loop. */
function requestCall(request, dispatcher) {
  return async (url) => {
    const { statusCode, body } = await request(url, { dispatcher });
    const json = await body.json();
    return { status: statusCode, json: async () => json, text: async () => JSON.stringify(json) };
  };
}

async function setup() {
  // Taken before the harness starts, as an SDK built at import time holds it.
  const captured = globalThis.fetch;
  const { MockAgent, request } = await import('undici');
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent.get('https://api.bench.test').intercept({ path: '/micro/ping', method: 'GET' }).reply(200, BODY, { headers: { 'content-type': 'application/json' } }).persist();
  const { loadHarness } = await import('./lib/harness-glue.js');
  const harness = await startMicroHarness(await loadHarness(), 'bypass');
  const harnessDispatcher = globalThis[GLOBAL_DISPATCHER];
  if (pair === 'captured') {
    return {
      ...harness,
      mockAgent: (url) => captured(url, { dispatcher: agent }),
      harness: (url) => captured(url, { dispatcher: harnessDispatcher }),
      close: () => agent.close(),
    };
  }
  if (pair === 'request') {
    return { ...harness, mockAgent: requestCall(request, agent), harness: requestCall(request, harnessDispatcher), close: () => agent.close() };
  }
  throw new Error(`unknown paired micro ${pair}`);
}

async function main() {
  const subjects = await setup();
  const time = (side, n, warmup = 0) => timeSequentialCalls({ call: subjects[side], url: URL_, bodyText: BODY_TEXT, warmup, n, label: `${pair} ${side}` });
  const rounds = await subjects.wrap(async () => {
    await time('mockAgent', 1, WARMUP);
    await time('harness', 1, WARMUP);
    const out = [];
    for (let round = 0; round < ROUNDS; round++) {
      // ABBA: whichever side runs first in one round runs second in the next.
      const order = round % 2 === 0 ? ['mockAgent', 'harness'] : ['harness', 'mockAgent'];
      const means = {};
      for (const side of order) {
        const r = await time(side, BLOCK);
        if (r.bad > 0) throw new Error(`${pair} ${side}: ${r.bad} wrong answers`);
        means[side] = r.meanUs;
      }
      out.push({ mockAgentUs: means.mockAgent, harnessUs: means.harness, ratio: means.harness / means.mockAgent });
    }
    return out;
  });
  await subjects.close();
  await subjects.stop();
  // Every round as measured: bench/run.js takes the median and the quartiles.
  process.send({ type: 'result', pair, block: BLOCK, rounds }, () => process.exit(0));
}

main().catch(failChild);
