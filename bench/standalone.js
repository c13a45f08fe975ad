// The standalone server's benchmark (issue 14): requests/s and p99 latency of
// `scenario-harness serve` (the real CLI in a child process, from dist/) with 1 and with
// 1,000 test IDs, beside two floors in plain node:http: an echo that answers from a Map, and
// a proxy in front of that echo. WireMock is measured the same way by
// bench/standalone-wiremock.js (it needs Java and downloads WireMock on demand).
//
//   npm run bench:standalone            builds dist/, then runs this (about 45 s)
//   BENCH_QUICK=1 node bench/standalone.js
//
// Environment: BENCH_QUICK, BENCH_DURATION (s, default 4), BENCH_WARMUP (s, default 1),
// BENCH_CONNECTIONS (default 16), BENCH_SUBJECTS (standalone,echo,proxy),
// BENCH_OUT (default bench/results/standalone.json).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild, stopChild } from './lib/proc.js';
import { buildStandaloneWorkload, CFG, describeResult, log, measure, pool, resultTable, scenarioFile, WORKLOADS } from './lib/standalone-load.js';
import { HARNESS_HEADER } from './lib/workloads.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.dirname(benchDir);
const OUT = process.env.BENCH_OUT || path.join(benchDir, 'results', 'standalone.json');
const SUBJECTS = (process.env.BENCH_SUBJECTS || 'standalone,echo,proxy').split(',').map((s) => s.trim());
export const LABELS = { standalone: 'scenario-harness serve', echo: 'floor: node:http echo', proxy: 'floor: node:http proxy → echo' };
const START_TIMEOUT_MS = 30_000;

/** `scenario-harness serve` on the workload's scenarios; resolves with its address once it prints it. */
function startServe(spec) {
  const dir = path.join(benchDir, 'results', 'standalone');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${spec.name}.json`);
  fs.writeFileSync(file, JSON.stringify(scenarioFile(spec)));
  const child = spawn(process.execPath, [path.join(rootDir, 'bin', 'scenario-harness.js'), 'serve', '--port', '0', '--unhandled', 'error', file], {
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start within ${START_TIMEOUT_MS} ms\n${output}`));
    }, START_TIMEOUT_MS);
    child.stderr.on('data', (d) => (output += d));
    child.stdout.on('data', (d) => {
      output += d;
      const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url === undefined || !output.includes('Press Ctrl+C')) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data').resume();
      resolve({ child, base: url });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before listening\n${output}`));
    });
  });
}

async function switchAll(base, switches) {
  await pool(switches, 16, async ({ testId, scenarioId }) => {
    const r = await fetch(`${base}/__scenario__`, { method: 'POST', headers: { 'content-type': 'application/json', [HARNESS_HEADER]: testId }, body: JSON.stringify({ scenario: scenarioId }) });
    if (r.status !== 200) throw new Error(`switch ${testId} -> ${scenarioId} answered ${r.status} ${await r.text()}`);
  });
}

async function measureSubject(subject, workload) {
  const spec = buildStandaloneWorkload(workload);
  const started = [];
  try {
    let base;
    if (subject === 'standalone') {
      const serve = await startServe(spec);
      started.push(serve.child);
      base = serve.base;
      await switchAll(base, spec.switches);
    } else {
      const echo = await startChild('standalone-floor.js', ['echo', workload]);
      started.push(echo.child);
      base = `http://127.0.0.1:${echo.msg.port}`;
      if (subject === 'proxy') {
        const proxy = await startChild('standalone-floor.js', ['proxy', workload, String(echo.msg.port)]);
        started.push(proxy.child);
        base = `http://127.0.0.1:${proxy.msg.port}`;
      }
    }
    // Every subject gets the same request: the upstream in the path, as services call the server.
    return await measure({ base, spec, pathOf: (v) => `/https/api.bench.test${v.path}`, pids: started.map((child) => child.pid) });
  } catch (err) {
    return { valid: false, error: String(err && err.message ? err.message : err) };
  } finally {
    for (const child of started.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      if (child.exited) {
        child.kill('SIGTERM');
        await child.exited;
      } else await stopChild(child);
    }
  }
}

async function main() {
  const started = Date.now();
  if (SUBJECTS.includes('standalone') && !fs.existsSync(path.join(rootDir, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm run bench:standalone does).');
  }
  const results = {};
  for (const workload of Object.keys(WORKLOADS)) {
    for (const subject of SUBJECTS) {
      const r = await measureSubject(subject, workload);
      (results[subject] ||= {})[workload] = r;
      log(`${workload.padEnd(6)} ${LABELS[subject].padEnd(30)} ${describeResult(r)}`);
    }
  }
  console.log('');
  console.log(`standalone server, GET through the upstream in the path; ${CFG.connections} connections, ${CFG.duration} s after ${CFG.warmup} s warm-up; every response checked`);
  console.log(resultTable(results, LABELS));
  const s = results.standalone;
  if (s?.S1?.valid && s?.S1000?.valid) console.log(`\n1,000 test IDs cost ${(s.S1.rps / s.S1000.rps).toFixed(2)}× one test ID (req/s S1 ÷ S1000)`);
  for (const floor of ['echo', 'proxy']) {
    if (s?.S1?.valid && results[floor]?.S1?.valid) console.log(`S1: scenario-harness serve at ${((100 * s.S1.rps) / results[floor].S1.rps).toFixed(0)}% of the ${floor} floor`);
  }
  const runtimeS = Math.round((Date.now() - started) / 100) / 10;
  console.log(`total runtime ${runtimeS} s`);
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, `${JSON.stringify({ config: CFG, env: { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model?.trim(), runtimeS }, results }, null, 2)}\n`);
  console.log(`saved ${path.relative(process.cwd(), OUT) || OUT}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
