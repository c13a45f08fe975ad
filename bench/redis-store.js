// Per-call cost of the Redis session store against the memory store.
//
//   npm run build && node bench/redis-store.js [--calls 2000]
//
// Measures the time of one intercepted fetch (sequential, one test ID, answered by a mock)
// with the memory store, then with the Redis store over node-redis and over ioredis. Uses
// REDIS_URL when set, else starts its own redis-server on a free loopback port. Imports the
// built package (dist/) by its name. No sleeps: every wait is on an event or a promise.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { createHarness, createMemoryStore, defineScenarios } from 'scenario-harness';
import { createRedisStore } from 'scenario-harness/redis';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '2000' }, warmup: { type: 'string', default: '300' } } });
const CALLS = Number(values.calls);
const WARMUP = Number(values.warmup);
const API = 'https://api.bench.test';

const scenarios = defineScenarios({
  default: { name: 'Default', mocks: [] },
  bench: {
    name: 'Bench',
    mocks: [
      { method: 'GET', url: `${API}/plain`, response: { body: { ok: true } } },
      { method: 'GET', url: `${API}/sequence`, sequence: { responses: [{ body: 1 }, { body: 2 }], repeat: 'cycle' } },
      { method: 'POST', url: `${API}/save`, response: { status: 204 }, afterResponse: { setState: { 'saved.last': '{{body.n}}' } } },
    ],
  },
});

/** Calls the benchmark makes: [label, what one call does]. Round trips are for the Redis store. */
const CALL_KINDS = [
  ['plain mock (1 Redis round trip)', () => fetch(`${API}/plain`)],
  ['sequence mock (2 round trips)', () => fetch(`${API}/sequence`)],
  ['setState mock (2 round trips)', () => fetch(`${API}/save`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' })],
];

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Start redis-server and resolve once it accepts connections. */
async function startRedisServer() {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    let output = '';
    child.once('error', (error) => reject(new Error(`Could not start redis-server (${error.message}). Install it (sudo apt-get install -y redis-server) or set REDIS_URL.`)));
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        child.removeAllListeners('exit');
        child.stdout.resume();
        resolve();
      }
    });
  });
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

const ROUNDS = 5;

/**
 * Times (µs) of `CALLS` sequential calls of each kind per store. The stores take turns in
 * ROUNDS rounds, so a noisy neighbour on the machine slows them alike.
 */
async function measure(stores) {
  const harnesses = Object.fromEntries(Object.entries(stores).map(([name, store]) => [name, createHarness({ enabled: true, scenarios, store, unhandled: 'error' })]));
  const times = {};
  const testId = randomUUID();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, harness] of Object.entries(harnesses)) {
      // One started harness at a time: they share the process's interception.
      await harness.start();
      try {
        if (round === 0) await harness.switchScenario(testId, 'bench');
        for (const [label, call] of CALL_KINDS) {
          const once = () => harness.run(testId, async () => void (await (await call()).arrayBuffer()));
          if (round === 0) for (let i = 0; i < WARMUP; i++) await once();
          const list = ((times[name] ??= {})[label] ??= []);
          for (let i = 0; i < CALLS / ROUNDS; i++) {
            const started = performance.now();
            await once();
            list.push((performance.now() - started) * 1000);
          }
        }
      } finally {
        await harness.stop();
      }
    }
  }
  return times;
}

/** Mean, mean without the slowest 1 %, median and p99 of a list of µs. */
function summarize(list) {
  const sorted = Float64Array.from(list).sort();
  const mean = (values) => values.reduce((sum, t) => sum + t, 0) / values.length;
  const kept = sorted.subarray(0, Math.ceil(sorted.length * 0.99));
  return { mean: mean(sorted), trimmed: mean(kept), p50: sorted[Math.floor(sorted.length * 0.5)], p99: sorted[Math.floor(sorted.length * 0.99)] };
}

const server = process.env.REDIS_URL ? { url: process.env.REDIS_URL, stop() {} } : await startRedisServer();
const nodeRedis = await createClient({ url: server.url }).on('error', (error) => console.error('node-redis:', error.message)).connect();
const ioredis = new Redis(server.url);
ioredis.on('error', (error) => console.error('ioredis:', error.message));
try {
  const prefix = `bench:${randomUUID()}:`;
  const times = await measure({
    memory: createMemoryStore(),
    'redis (node-redis)': createRedisStore({ client: nodeRedis, prefix }),
    'redis (ioredis)': createRedisStore({ client: ioredis, prefix }),
  });
  console.log(`µs per intercepted fetch: ${CALLS} sequential calls per row after ${WARMUP} warm-up calls, stores taking turns in ${ROUNDS} rounds; Node ${process.version}, Redis on loopback.`);
  const table = [];
  const summaries = {};
  for (const [label] of CALL_KINDS) {
    for (const [store, byKind] of Object.entries(times)) {
      const { mean, trimmed, p50, p99 } = ((summaries[store] ??= {})[label] = summarize(byKind[label]));
      table.push({ call: label, store, mean: Math.round(mean), 'mean (fastest 99 %)': Math.round(trimmed), p50: Math.round(p50), p99: Math.round(p99) });
    }
  }
  console.table(table);
  const plain = CALL_KINDS[0][0];
  const extra = (store, stat) => Math.round(summaries[store][plain][stat] - summaries.memory[plain][stat]);
  for (const store of ['redis (node-redis)', 'redis (ioredis)']) {
    console.log(`${store} adds ${extra(store, 'p50')} µs (median) / ${extra(store, 'trimmed')} µs (mean of the fastest 99 %) per plain intercepted call over the memory store.`);
  }
} finally {
  await nodeRedis.destroy();
  ioredis.disconnect();
  server.stop();
}
