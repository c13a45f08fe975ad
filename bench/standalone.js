// The standalone server's benchmark (issue 14): requests/s and p99 latency of
// `scenario-harness serve` (the real CLI in a child process, from dist/) with 1 and with
// 1,000 test IDs, beside two floors in plain node:http: an echo that answers from a Map, and
// a proxy in front of that echo. WireMock is measured the same way by
// bench/standalone-wiremock.js (it needs Java and downloads WireMock on demand).
//
//   npm run bench:standalone            builds dist/, then runs this (about 40 s on a quiet machine)
//   BENCH_QUICK=1 node bench/standalone.js
//
// Environment: BENCH_QUICK, BENCH_DURATION (s, default 4), BENCH_WARMUP (s, default 2),
// BENCH_CONNECTIONS (default 16), BENCH_SUBJECTS (standalone,echo,proxy),
// BENCH_OUT (default bench/results/standalone.json).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CFG, describeResult, log, measureAll, resultTable, WORKLOADS } from './lib/standalone-load.js';
import { LABELS, measureSubject } from './lib/standalone-subjects.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.dirname(benchDir);
const OUT = process.env.BENCH_OUT || path.join(benchDir, 'results', 'standalone.json');
const SUBJECTS = (process.env.BENCH_SUBJECTS || 'standalone,echo,proxy').split(',').map((s) => s.trim());

async function main() {
  const started = Date.now();
  if (SUBJECTS.includes('standalone') && !fs.existsSync(path.join(rootDir, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm run bench:standalone does).');
  }
  const results = await measureAll(Object.keys(WORKLOADS), SUBJECTS, (subject, workload) => measureSubject(subject, workload), (workload, subject, r, note) =>
    log(`${workload.padEnd(6)} ${LABELS[subject].padEnd(30)} ${describeResult(r)}${note}`),
  );
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
