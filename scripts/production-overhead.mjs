// What `enabled: false` costs an Express app per request, against the built package.
// Not a test: it measures, it does not assert.
//
//   npm run build && node scripts/production-overhead.mjs      (or: npm run overhead)
//
// Two figures:
//  1. HTTP throughput (autocannon, loopback) of the same Express app without the middleware, with
//     harnessMiddleware(createHarness({ enabled: false })), and with two no-op middleware of the
//     same shape (Express's own cost per layer); each server in its own child process with
//     NODE_ENV=production, in rotating order over several rounds (best round kept).
//  2. The middleware call itself, timed in-process over millions of calls.
// Environment (optional): OVERHEAD_DURATION seconds per run (default 5), OVERHEAD_ROUNDS
// (default 3), OVERHEAD_CONNECTIONS (default 16).
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);
const SCENARIOS = { default: { name: 'Default', mocks: [{ url: 'https://api.example.test/users/:id', response: { body: { id: '{{params.id}}' } } }] } };

async function createApp(mode) {
  const { default: express } = await import('express');
  const app = express();
  // The reference: two middleware that do nothing, the shape harnessMiddleware has.
  if (mode === 'no-op') app.use([(_req, _res, next) => next(), (error, _req, _res, next) => next(error)]);
  if (mode === 'disabled') {
    const { createHarness } = await import('scenario-harness');
    const { harnessMiddleware } = await import('scenario-harness/express');
    const harness = createHarness({ enabled: false, scenarios: SCENARIOS });
    await harness.start();
    app.use(harnessMiddleware(harness));
  }
  app.get('/hello', (_req, res) => void res.json({ hello: 'world' }));
  return app;
}

// Child: serve one app and report the port.
if (process.argv[2] === 'serve') {
  const app = await createApp(process.argv[3]);
  const server = app.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
} else {
  const duration = Number(process.env.OVERHEAD_DURATION ?? 5);
  const rounds = Number(process.env.OVERHEAD_ROUNDS ?? 3);
  const connections = Number(process.env.OVERHEAD_CONNECTIONS ?? 16);

  async function measure(mode) {
    const child = fork(SELF, ['serve', mode], { env: { ...process.env, NODE_ENV: 'production' } });
    const { port } = await new Promise((resolve) => child.once('message', resolve));
    const url = `http://127.0.0.1:${port}/hello`;
    try {
      await autocannon({ url, connections, duration: 1 }); // warm-up
      const result = await autocannon({ url, connections, duration });
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${mode}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
      return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, mean: result.latency.mean };
    } finally {
      child.kill();
    }
  }

  const MODES = ['plain', 'disabled', 'no-op'];
  const best = {};
  for (let round = 1; round <= rounds; round++) {
    for (const mode of [...MODES.slice(round % 3), ...MODES.slice(0, round % 3)]) {
      const figures = await measure(mode);
      console.log(`round ${round} ${mode.padEnd(8)} ${figures.rps.toFixed(0).padStart(7)} req/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms`);
      if (best[mode] === undefined || figures.rps > best[mode].rps) best[mode] = figures;
    }
  }

  // The middleware call alone: what every request pays in the disabled harness.
  process.env.NODE_ENV = 'production';
  const { createHarness } = await import('scenario-harness');
  const { harnessMiddleware } = await import('scenario-harness/express');
  const [handleRequest] = harnessMiddleware(createHarness({ enabled: false, scenarios: SCENARIOS }));
  const req = { headers: { 'x-harness-test-id': 't' }, originalUrl: '/hello', method: 'GET' };
  const next = () => {};
  const CALLS = 5_000_000;
  const time = (fn) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) fn(req, undefined, next);
    return Number(process.hrtime.bigint() - start) / CALLS;
  };
  const empty = (_req, _res, callNext) => callNext();
  time(handleRequest); // warm-up
  time(empty);
  const middlewareNs = time(handleRequest);
  const baselineNs = time(empty);

  console.log('');
  console.log(`Express ${connections} connections, ${duration} s per run, best of ${rounds} rounds, NODE_ENV=production, Node ${process.version}`);
  console.log(`without the middleware:            ${best.plain.rps.toFixed(0).padStart(7)} req/s  (mean latency ${best.plain.mean.toFixed(2)} ms)`);
  console.log(`with harnessMiddleware, disabled:  ${best.disabled.rps.toFixed(0).padStart(7)} req/s  (mean latency ${best.disabled.mean.toFixed(2)} ms)`);
  console.log(`with two no-op middleware:         ${best['no-op'].rps.toFixed(0).padStart(7)} req/s  (mean latency ${best['no-op'].mean.toFixed(2)} ms)`);
  console.log(`throughput ratio, disabled / without: ${(best.disabled.rps / best.plain.rps).toFixed(3)}`);
  console.log(`throughput ratio, disabled / no-op:   ${(best.disabled.rps / best['no-op'].rps).toFixed(3)}`);
  console.log(`middleware call: ${middlewareNs.toFixed(1)} ns per request (an empty (req, res, next) => next() takes ${baselineNs.toFixed(1)} ns)`);
}
