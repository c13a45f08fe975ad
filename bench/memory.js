// Child process (run with --expose-gc): W5, memory per idle test ID.
//   node --expose-gc bench/memory.js <subject> <count>
// Creates <count> test IDs (random UUIDs, as a test runner would), each switched
// to a scenario through the subject's own API, and no traffic. Reports the growth
// of heapUsed (and RSS) after full GCs, divided by <count>. The ID strings are
// created inside the measured region: holding them is part of the cost.
import { randomUUID } from 'node:crypto';
import { failChild } from './lib/proc.js';

const [subject, countArg] = process.argv.slice(2);
const COUNT = Number(countArg || 10_000);

function fullGc() {
  for (let i = 0; i < 4; i++) globalThis.gc();
}

async function setup() {
  const mock = (id) => ({ method: 'GET', url: `https://api.bench.test/items/${id}`, response: { status: 200, body: { id } } });
  if (subject === 'harness') {
    const { loadHarness } = await import('./lib/harness-glue.js');
    const { createHarness, defineScenarios } = await loadHarness();
    const harness = createHarness({
      enabled: true,
      scenarios: defineScenarios({
        default: { name: 'Default', mocks: [mock('d')] },
        s0000: { name: 's0000', mocks: [mock('a')] },
      }),
      unhandled: 'bypass',
    });
    await harness.start();
    return {
      keep: harness,
      switchTo: (testId) => harness.switchScenario(testId, 's0000'),
      check: async (testId) => (await harness.getActiveScenario(testId))?.scenarioId === 's0000',
      stop: () => harness.stop(),
    };
  }
  if (subject === 'scenarist') {
    const { createScenaristGlue } = await import('./lib/scenarist-glue.js');
    const mk = (id, mocks) => ({ id, name: id, description: '', mocks });
    const s = createScenaristGlue({
      scenarios: { default: mk('default', [mock('d')]), s0000: mk('s0000', [mock('a')]) },
    });
    s.start();
    return {
      keep: s,
      switchTo: async (testId) => {
        const r = s.manager.switchScenario(testId, 's0000');
        if (!r.success) throw r.error;
      },
      check: async (testId) => s.manager.getActiveScenario(testId)?.scenarioId === 's0000',
      stop: async () => s.stop(),
    };
  }
  throw new Error(`unknown memory subject ${subject}`);
}

async function main() {
  if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
  const s = await setup();
  // warm the code paths once, then forget that ID
  await s.switchTo('warm-up-id');
  fullGc();
  const before = process.memoryUsage();
  let lastId;
  for (let i = 0; i < COUNT; i++) {
    lastId = randomUUID();
    await s.switchTo(lastId);
  }
  fullGc();
  const after = process.memoryUsage();
  if (!(await s.check(lastId))) throw new Error(`${subject}: test ID ${lastId} is not switched`);
  const res = {
    type: 'result',
    subject,
    count: COUNT,
    heapBytesPerId: (after.heapUsed - before.heapUsed) / COUNT,
    rssBytesPerId: (after.rss - before.rss) / COUNT,
    heapUsedBefore: before.heapUsed,
    heapUsedAfter: after.heapUsed,
    rssBefore: before.rss,
    rssAfter: after.rss,
  };
  void s.keep;
  await s.stop();
  process.send(res, () => process.exit(0));
}

main().catch(failChild);
