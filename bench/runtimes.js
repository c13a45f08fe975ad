// Parent (Node): a mocked fetch on Bun and on Deno beside the runtime's bare patched fetch
// (issue 28, item 5). For each runtime it runs bench/runtime-micro.js ON that runtime, once per
// subject per round ('floor' then 'harness', interleaved), keeps each subject's best round mean,
// and prints µs per call and the ratio harness / floor. There is no target yet: the figure is
// the ratio. Results go to bench/results/runtimes.json.
//
//   npm run bench:runtimes             builds dist/, then this (about 15 s per runtime)
//   node bench/runtimes.js             against the existing dist/
//
// The binaries are the pinned ones scripts/ensure-runtimes.mjs installs; a missing one is
// skipped with a loud line naming the command that installs it.
// Environment:
//   BENCH_QUICK=1                     500 calls after 200 warm-up, 1 round
//   BENCH_RUNTIMES_N=n                timed calls per round (default 50000)
//   BENCH_RUNTIMES_WARMUP=n           warm-up calls per round (default 10000)
//   BENCH_RUNTIMES_ROUNDS=n           interleaved rounds per subject, best kept (default 5)
//   BENCH_RUNTIMES=list               comma list of bun,deno (default both)
//   BENCH_RUNTIMES_OUT=path           where the JSON goes (default bench/results/runtimes.json)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedVersion, runtimeBinary } from '../scripts/ensure-runtimes.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.dirname(benchDir);
const { env } = process;
const QUICK = env.BENCH_QUICK === '1';
const num = (value, fallback) => (value === undefined || value === '' ? fallback : Number(value));
const CFG = {
  n: num(env.BENCH_RUNTIMES_N, QUICK ? 500 : 50_000),
  warmup: num(env.BENCH_RUNTIMES_WARMUP, QUICK ? 200 : 10_000),
  rounds: num(env.BENCH_RUNTIMES_ROUNDS, QUICK ? 1 : 5),
  runtimes: (env.BENCH_RUNTIMES || 'bun,deno').split(',').map((name) => name.trim()).filter(Boolean),
  out: env.BENCH_RUNTIMES_OUT || path.join(benchDir, 'results', 'runtimes.json'),
};
const SUBJECTS = ['floor', 'harness'];
const CHILD = path.join(benchDir, 'runtime-micro.js');
const CHILD_TIMEOUT_MS = 120_000;
const log = (line) => process.stderr.write(`${line}\n`);
const fmt1 = (x) => (x === undefined ? '—' : x.toFixed(1));

/**
 * How each runtime runs the child: plain JavaScript importing the package by its published name,
 * as test/runtimes/start-runtime-app.ts runs the fixture apps. Bun follows the repository's
 * tsconfig.json paths to src/; the override has none, so it loads the build. --no-lock: no
 * deno.lock written into the repository.
 */
const COMMAND_LINES = {
  bun: [`--tsconfig-override=${path.join(rootDir, 'test', 'runtimes', 'fixtures', 'bun-tsconfig.json')}`, CHILD],
  deno: ['run', '--allow-all', '--no-lock', CHILD],
};

/** One round of one subject on `binary`: resolves with the child's RESULT line, parsed. */
function runRound(runtime, binary, subject) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [...COMMAND_LINES[runtime], subject, String(CFG.warmup), String(CFG.n)], {
      cwd: rootDir,
      // No colour codes in the output we read; Deno's update check would reach for the internet.
      // HARNESS_ALLOW_PRODUCTION: the subject's enabled harness (no token) runs under NODE_ENV=production on purpose.
      env: { ...env, NODE_ENV: 'production', HARNESS_ALLOW_PRODUCTION: 'true', NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const line = /^RESULT (.*)$/m.exec(output)?.[1];
      if (code === 0 && line !== undefined) resolve(JSON.parse(line));
      else reject(new Error(`${runtime} ${subject} exited (${code ?? signal}) without a result:\n${output.slice(-4000)}`));
    });
  });
}

/** Every round of both subjects on one runtime, interleaved so drift on the machine hits both alike. */
async function measureRuntime(runtime) {
  const binary = runtimeBinary(runtime);
  const version = pinnedVersion(runtime);
  if (!fs.existsSync(binary)) {
    const install = `node scripts/ensure-runtimes.mjs ${runtime}`;
    log(`\n*** SKIPPED ${runtime} ${version}: its binary is not installed (${binary}). Install it with \`${install}\` (the pinned binary, from the npm registry). ***\n`);
    return { runtime, version, skipped: `not installed; run \`${install}\`` };
  }
  const rounds = Object.fromEntries(SUBJECTS.map((subject) => [subject, []]));
  for (let round = 0; round < CFG.rounds; round++) {
    for (const subject of SUBJECTS) {
      const result = await runRound(runtime, binary, subject);
      const valid = result.bad === 0;
      rounds[subject].push({ ...result, valid });
      log(`${runtime.padEnd(5)} ${subject.padEnd(8)} round ${round + 1}: ${valid ? `${fmt1(result.meanUs)} µs/call` : `INVALID (${result.bad} bad answers)`}`);
    }
  }
  const best = (results) => results.filter((r) => r.valid).sort((a, b) => a.meanUs - b.meanUs)[0];
  const subjects = Object.fromEntries(SUBJECTS.map((subject) => [subject, { best: best(rounds[subject]) ?? null, rounds: rounds[subject] }]));
  const floor = subjects.floor.best?.meanUs;
  const harness = subjects.harness.best?.meanUs;
  return { runtime, version, binary, subjects, ratio: floor && harness ? harness / floor : null };
}

function report(results) {
  const rows = [['runtime', 'floor µs/call (p50)', 'harness µs/call (p50)', 'harness / floor']];
  for (const r of results) {
    if (r.skipped) {
      rows.push([`${r.runtime} ${r.version}`, 'SKIPPED', r.skipped, '']);
      continue;
    }
    const cell = (s) => (s.best ? `${fmt1(s.best.meanUs)} (${fmt1(s.best.p50Us)})` : 'INVALID');
    rows.push([`${r.runtime} ${r.version}`, cell(r.subjects.floor), cell(r.subjects.harness), r.ratio === null ? 'n/a' : `${r.ratio.toFixed(2)}×`]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const lines = rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd());
  return [
    'mocked fetch on Bun and Deno: sequential `await fetch(url)` + `json()`, mean µs per call',
    ...lines,
    `(${CFG.n} timed calls after ${CFG.warmup} warm-up; best mean of ${CFG.rounds} interleaved round(s); floor = globalThis.fetch replaced by a function returning a Response; harness = scenario-harness inside harness.run, answered by a mock)`,
  ].join('\n');
}

async function main() {
  const startedAt = new Date().toISOString();
  let commit = null;
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: rootDir, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    commit = null;
  }
  if (!fs.existsSync(path.join(rootDir, 'dist', 'index.js'))) log('warning: dist/index.js is missing; run `npm run build` (the harness subject will fail)');
  const results = [];
  let failed = false;
  for (const runtime of CFG.runtimes) {
    try {
      results.push(await measureRuntime(runtime));
    } catch (error) {
      failed = true;
      log(`ERROR ${runtime}: ${error.message}`);
      results.push({ runtime, version: pinnedVersion(runtime), error: error.message });
    }
  }
  console.log(report(results.filter((r) => !r.error)));
  // Contention only ever raises per-call time, and not both subjects alike: say when others were busy.
  const [load1] = os.loadavg();
  console.log(`load average ${load1.toFixed(2)} on ${os.cpus().length} cores at the end${load1 > os.cpus().length / 2 ? ' — WARNING: the machine was busy; figures are noisier than usual' : ''}`);
  const env_ = { node: process.version, platform: `${os.platform()} ${os.release()}`, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model?.trim(), commit, startedAt, loadAvgAtStart: os.loadavg() };
  fs.mkdirSync(path.dirname(CFG.out), { recursive: true });
  fs.writeFileSync(CFG.out, `${JSON.stringify({ config: CFG, env: env_, results }, null, 2)}\n`);
  log(`results: ${path.relative(rootDir, CFG.out)}`);
  if (failed) process.exitCode = 1;
}

main();
