#!/usr/bin/env node
// Compares two builds of scenario-harness in one run (issue 39, item 6: "W1 and the micro
// benchmarks stay within noise of today, measured as alternating builds in one run; install weight
// and what a disabled app loads stay as they are"):
//
//   node bench/compare-builds.js --base <rev> [--rounds N] [--only w1,micro,weight,disabled]
//                                [--candidate-rev <rev>] [--rebuild-candidate]
//                                [--micro captured,request,axios,axios-http] [--blocks N] [--out file]
//
// The base is a commit, cloned, installed (`npm ci`) and built (`npm run build`) outside the
// repository with the Node first on PATH, cached under
// ${SCENARIO_HARNESS_CACHE:-~/.cache/scenario-harness}/bench-base/<full sha>/ (bench/lib/builds.js).
// The candidate is this repository's dist/ as it is (built with `npx tsc -p tsconfig.build.json`
// only when missing, or with --rebuild-candidate; never `npm run build`, which deletes dist/ first),
// copied at the start so a rebuild meanwhile changes nothing; or, with --candidate-rev, another
// commit built like the base (the same commit twice is an A/A run: what noise alone gives).
//
// Each build is imported by its published names from a staged folder (bench/results/compare-builds/
// run-<pid>/{base,candidate}/), through BENCH_HARNESS_LOADER (bench/lib/harness-glue.js). Every
// measurement is a child process of its own, so JIT and heap never carry from one build to the
// other; the builds alternate within each round, and the order flips every round (base first in
// odd rounds, candidate first in even ones: ABBA), so a drift of the machine's speed weighs on both.
//
//   w1        bench/run.js's W1 (one scenario, one mock, one test ID: GET /items/i0000 through the
//             Express app, bench/app.js subject `harness`), measured as run.js measures it
//             (bench/lib/load-once.js): req/s and p99 ms, 16 connections, 1.5 s warm-up + 5 s.
//   micro     the harness sides of bench/micro-paired.js's pairs: a fetch captured before start(),
//             undici.request, axios over https and over plain http. Each round starts one
//             micro-paired.js process per build and times them in alternating blocks (ABBA,
//             --blocks blocks of ~20 ms each, as bench/run.js's paired micro): the round's figure is
//             each side's median µs per call and the median of the blocks' ratios.
//   weight    `npm pack` of each build (tarball bytes, unpacked bytes, files) and `npm install
//             --omit=dev` of express + the tarball: packages and node_modules KiB
//             (bench/lib/npm-weight.js, the functions of bench/install-weight.js).
//   disabled  a child per build imports the main entry, calls createHarness({ enabled: false, … }),
//             start() and stop() (bench/lib/disabled-probe.js, a module hook as test/disabled uses):
//             the modules it loaded from the build's dist/ and their bytes, the other packages, and
//             which dist/ modules only one build loads.
//
// Per timed workload: the median of the base's rounds, of the candidate's, the median of the
// rounds' ratios candidate ÷ base, and their spread (min–max): a ratio whose spread holds 1.00 is
// within this run's noise. The table goes to stdout, progress to stderr, everything to
// bench/results/compare-builds-<short base>-<date>.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildAtRev, stageBuild, workingBuild } from './lib/builds.js';
import { measureHarnessLoad, LOAD_DEFAULTS } from './lib/load-once.js';
import { install, packWithStats } from './lib/npm-weight.js';
import { MICRO_EXEC_ARGV } from './lib/micro-exec-argv.js';
import { ask, startChild, stopChild } from './lib/proc.js';
import { textTable } from './lib/text-table.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const log = (line) => process.stderr.write(`${line}\n`);

const STEPS = ['w1', 'micro', 'weight', 'disabled'];
/** The harness sides of bench/run.js's paired micro (bench/micro-paired.js subjects). */
const MICRO = [
  { id: 'captured', subject: 'harness-captured', what: 'micro: fetch captured before start()' },
  { id: 'request', subject: 'harness-undici', what: 'micro: undici.request' },
  { id: 'axios', subject: 'harness-axios', what: 'micro: axios (node:https)' },
  { id: 'axios-http', subject: 'harness-axios-http', what: 'micro: axios over plain http' },
];
// bench/run.js's paired micro settings: 10,000 warm-up calls or 2 s, 500 calibration calls, ~20 ms blocks.
// Then a few untimed alternating blocks: the first blocks after the other process's warm-up ran
// several times slower on both sides (a process idle on its IPC channel for seconds is not at speed).
const PAIRED = { warmup: 10_000, warmupMs: 2_000, calibration: 500, blockMs: 20, settleBlocks: 4 };

function usage(message) {
  if (message) log(`compare-builds: ${message}`);
  log('usage: node bench/compare-builds.js --base <rev> [--rounds N] [--only w1,micro,weight,disabled] [--candidate-rev <rev>] [--rebuild-candidate] [--micro captured,request,axios,axios-http] [--blocks N] [--out file]');
  process.exit(2);
}

function parseArgs(argv) {
  const args = { rounds: 5, blocks: 40, only: new Set(STEPS), micro: MICRO.map((m) => m.id), rebuildCandidate: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) usage(`${flag} needs a value`);
      return v;
    };
    const count = () => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) usage(`${flag} takes a whole number of at least 1`);
      return n;
    };
    if (flag === '--base') args.base = value();
    else if (flag === '--candidate-rev') args.candidateRev = value();
    else if (flag === '--rounds') args.rounds = count();
    else if (flag === '--blocks') args.blocks = count();
    else if (flag === '--out') args.out = path.resolve(value());
    else if (flag === '--rebuild-candidate') args.rebuildCandidate = true;
    else if (flag === '--only') {
      const list = value().split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
      for (const s of list) if (!STEPS.includes(s)) usage(`--only: unknown step ${s} (${STEPS.join(', ')})`);
      args.only = new Set(list);
    } else if (flag === '--micro') {
      const list = value().split(',').map((s) => s.trim()).filter(Boolean);
      for (const s of list) if (!MICRO.some((m) => m.id === s)) usage(`--micro: unknown subject ${s} (${MICRO.map((m) => m.id).join(', ')})`);
      args.micro = list;
    } else if (flag === '--help' || flag === '-h') usage();
    else usage(`unknown argument ${flag}`);
  }
  if (!args.base) usage('--base <rev> is required');
  if (args.candidateRev && args.rebuildCandidate) usage('--rebuild-candidate is for the working dist/, not --candidate-rev');
  return args;
}

// ---------------------------------------------------------------- figures

const sorted = (xs) => [...xs].sort((a, b) => a - b);
function median(xs) {
  const s = sorted(xs);
  if (!s.length) return null;
  const mid = (s.length - 1) / 2;
  return (s[Math.floor(mid)] + s[Math.ceil(mid)]) / 2;
}

/**
 * Per-round figures of both builds → the summary row (rounds where either side failed are left
 * out). A round's ratio is its `ratioField` when it has one (the micro's median block ratio), else
 * candidate ÷ base of `field`.
 */
function summarize(rounds, field, ratioField = 'ratio') {
  const ok = rounds.filter((r) => r.base?.[field] != null && r.candidate?.[field] != null);
  const ratios = ok.map((r) => r[ratioField] ?? r.candidate[field] / r.base[field]);
  if (!ok.length) return { rounds: 0, base: null, candidate: null, ratio: null, min: null, max: null };
  const base = median(ok.map((r) => r.base[field]));
  const candidate = median(ok.map((r) => r.candidate[field]));
  return { rounds: ok.length, base, candidate, ratio: median(ratios), ratioOfMedians: candidate / base, min: Math.min(...ratios), max: Math.max(...ratios), ratios };
}

const fmt = (n, digits = 1) => (n == null || !Number.isFinite(n) ? '—' : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }));
const signed = (n, digits = 0) => (n == null ? '—' : `${n > 0 ? '+' : ''}${fmt(n, digits)}`);

// ---------------------------------------------------------------- the steps

/** One round of one micro subject: a micro-paired.js process per build, alternating blocks. */
async function microRound(subject, order, blocks) {
  const sides = [];
  try {
    for (const side of order) {
      const { child, msg } = await startChild('micro-paired.js', [subject, String(PAIRED.warmup), String(PAIRED.warmupMs), String(PAIRED.calibration)], {
        timeoutMs: 300_000,
        execArgv: [...MICRO_EXEC_ARGV],
        env: { BENCH_HARNESS_LOADER: side.stage.loader },
      });
      sides.push({ label: side.label, child, calibrationUs: msg.calibrationUs });
    }
    const block = Math.max(10, Math.min(5_000, Math.round((PAIRED.blockMs * 1000) / Math.max(...sides.map((s) => s.calibrationUs)))));
    const samples = [];
    for (let k = -PAIRED.settleBlocks; k < blocks; k++) {
      const us = {};
      for (const side of k % 2 === 0 ? sides : [...sides].reverse()) {
        const r = await ask(side.child, { type: 'block', n: block });
        if (r.bad > 0) throw new Error(`${subject} on the ${side.label}: ${r.bad} wrong answers`);
        us[side.label] = r.meanUs;
      }
      if (k >= 0) samples.push(us);
    }
    for (const side of sides) {
      await ask(side.child, { type: 'stop' });
      await side.child.exited;
    }
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return {
      block,
      // us: the median block; meanUs: every call of the round (slow blocks, and the GC pauses they hold, included).
      base: { us: median(samples.map((s) => s.base)), meanUs: mean(samples.map((s) => s.base)) },
      candidate: { us: median(samples.map((s) => s.candidate)), meanUs: mean(samples.map((s) => s.candidate)) },
      ratio: median(samples.map((s) => s.candidate / s.base)),
      meanRatio: mean(samples.map((s) => s.candidate)) / mean(samples.map((s) => s.base)),
      blockRatioRange: [Math.min(...samples.map((s) => s.candidate / s.base)), Math.max(...samples.map((s) => s.candidate / s.base))],
      calibrationUs: Object.fromEntries(sides.map((s) => [s.label, s.calibrationUs])),
      samples,
    };
  } catch (err) {
    return { error: String(err && err.message ? err.message : err) };
  } finally {
    for (const side of sides) await stopChild(side.child);
  }
}

/** What a disabled app loads from one staged build (bench/lib/disabled-probe.js in a child). */
function probeDisabled(stage) {
  const out = execFileSync(process.env.BENCH_NODE || process.execPath, [path.join(benchDir, 'lib', 'disabled-probe.js'), stage.main], {
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  const report = JSON.parse(out.trim().split('\n').at(-1));
  const distPrefix = `file://${stage.realPkgDir}/dist/`;
  const describe = (urls) => {
    const unique = [...new Set(urls)];
    const dist = unique.filter((u) => u.startsWith(distPrefix)).map((u) => u.slice(distPrefix.length));
    const bytes = dist.reduce((sum, rel) => sum + fs.statSync(path.join(stage.realPkgDir, 'dist', rel)).size, 0);
    const packages = {};
    for (const u of unique) {
      if (u.startsWith(distPrefix) || !u.startsWith('file:')) continue;
      const names = [...u.matchAll(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)];
      if (names.length) packages[names.at(-1)[1]] = (packages[names.at(-1)[1]] ?? 0) + 1;
    }
    return { dist: dist.sort(), distBytes: bytes, packages, builtins: unique.filter((u) => u.startsWith('node:')).length };
  };
  return { afterCreate: describe(report.afterCreate), afterStart: describe(report.afterStart) };
}

/** npm pack + install beside express for one build. */
function weigh(build, work, label) {
  const into = path.join(work, `pack-${label}`);
  fs.mkdirSync(into);
  const packed = packWithStats(build.dir, into);
  const installed = install(work, label, ['express', packed.tarball]);
  return { tarballBytes: packed.size, unpackedBytes: packed.unpackedSize, files: packed.entryCount, packages: installed.packages, nodeModulesKib: Math.round(installed.mib * 1024), interceptors: installed.interceptors, each: installed.each };
}

// ---------------------------------------------------------------- main

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const [major] = process.versions.node.split('.').map(Number);
  if (major < 22) usage(`Node ${process.version} is first on PATH; scenario-harness needs 22.12 or newer`);

  const base = buildAtRev(args.base);
  const candidate = args.candidateRev ? buildAtRev(args.candidateRev) : workingBuild({ rebuild: args.rebuildCandidate });
  const describe = (b) => (b.kind === 'rev' ? `${b.sha.slice(0, 7)} (${b.rev}), built in ${b.dir}` : `this repository's dist/ (HEAD ${b.sha.slice(0, 7)}${b.changedUnderSrc.length ? ` + ${b.changedUnderSrc.length} changed paths under src/` : ''}; dist/ written ${b.distBuiltAt})`);
  log(`base:      ${describe(base)}`);
  log(`candidate: ${describe(candidate)}`);
  if (candidate.staleAgainstSrc) log('warning: src/ has files newer than dist/: the candidate is dist/ as last built, not src/ as it is now (--rebuild-candidate runs tsc first)');
  if (candidate.orphans?.length) log(`warning: dist/ has ${candidate.orphans.length} .js files with no source under src/ (${candidate.orphans.slice(0, 5).join(', ')}${candidate.orphans.length > 5 ? ', …' : ''}): an earlier build's leftovers, packed with the rest`);

  const runDir = path.join(benchDir, 'results', 'compare-builds', `run-${process.pid}`);
  const cleanUp = () => fs.rmSync(runDir, { recursive: true, force: true });
  process.once('SIGINT', () => {
    cleanUp();
    process.exit(130);
  });
  const sides = [
    { label: 'base', build: base, stage: stageBuild(runDir, 'base', base) },
    { label: 'candidate', build: candidate, stage: stageBuild(runDir, 'candidate', candidate) },
  ];

  const results = {
    env: { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model?.trim(), platform: `${os.platform()} ${os.release()}`, startedAt: new Date(started).toISOString(), loadAvgAtStart: os.loadavg() },
    config: { rounds: args.rounds, only: [...args.only], micro: args.micro, blocks: args.blocks, load: LOAD_DEFAULTS, paired: PAIRED, order: 'ABBA: base first in odd rounds, candidate first in even ones' },
    builds: { base, candidate },
    w1: null,
    micro: null,
    weight: null,
    disabled: null,
  };
  const problems = [];

  try {
    // What a disabled app loads: deterministic, one child per build; first, as it fails fast on a broken build.
    if (args.only.has('disabled')) {
      results.disabled = {};
      for (const side of sides) {
        try {
          results.disabled[side.label] = probeDisabled(side.stage);
          log(`disabled  ${side.label.padEnd(9)} ${results.disabled[side.label].afterStart.dist.length} modules from dist/`);
        } catch (err) {
          results.disabled[side.label] = { error: String(err.stderr || err.message).trim().split('\n').slice(0, 5).join('\n') };
          problems.push(`disabled ${side.label}: ${results.disabled[side.label].error}`);
        }
      }
    }

    const w1Rounds = [];
    const microRounds = Object.fromEntries(args.micro.map((id) => [id, []]));
    for (let round = 1; round <= args.rounds && (args.only.has('w1') || args.only.has('micro')); round++) {
      const order = round % 2 === 1 ? sides : [...sides].reverse();
      if (args.only.has('w1')) {
        const r = { round };
        for (const side of order) {
          const m = await measureHarnessLoad('W1', side.stage.loader);
          r[side.label] = m.valid ? m : null;
          if (!m.valid) problems.push(`W1 ${side.label} round ${round}: ${m.error ?? `invalid: errors=${m.errors} timeouts=${m.timeouts} non2xx=${m.non2xx} mismatches=${m.mismatches}`}`);
          log(`W1        ${side.label.padEnd(9)} round ${round}: ${m.valid ? `${fmt(m.rps, 0)} req/s  p99 ${fmt(m.latencyP99Ms)} ms` : `ERROR ${m.error ?? 'invalid'}`}  [${fmt(m.wallS)} s]`);
          if (!m.valid) r[`${side.label}Failure`] = m;
        }
        w1Rounds.push(r);
      }
      if (args.only.has('micro')) {
        for (const id of args.micro) {
          const { subject } = MICRO.find((m) => m.id === id);
          const r = { round, ...(await microRound(subject, order, args.blocks)) };
          microRounds[id].push(r);
          if (r.error) problems.push(`micro ${id} round ${round}: ${r.error.split('\n')[0]}`);
          log(`micro     ${id.padEnd(10)} round ${round}: ${r.error ? `ERROR ${r.error.split('\n')[0]}` : `base ${fmt(r.base.us, 2)} µs, candidate ${fmt(r.candidate.us, 2)} µs, candidate ÷ base ${fmt(r.ratio, 3)}; means ${fmt(r.base.meanUs, 2)} / ${fmt(r.candidate.meanUs, 2)} µs, ${fmt(r.meanRatio, 3)} (${args.blocks} blocks of ${r.block} calls)`}`);
        }
      }
    }
    if (args.only.has('w1')) results.w1 = { rounds: w1Rounds, rps: summarize(w1Rounds, 'rps'), p99: summarize(w1Rounds, 'latencyP99Ms') };
    if (args.only.has('micro')) results.micro = Object.fromEntries(args.micro.map((id) => [id, { rounds: microRounds[id], us: summarize(microRounds[id], 'us'), meanUs: summarize(microRounds[id], 'meanUs', 'meanRatio') }]));

    if (args.only.has('weight')) {
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'scenario-harness-compare-weight-'));
      try {
        log('weight: npm pack and npm install --omit=dev beside express, express alone first');
        const alone = install(work, 'express-alone', ['express']);
        results.weight = { expressAlone: { packages: alone.packages, nodeModulesKib: Math.round(alone.mib * 1024), express: alone.express } };
        for (const side of sides) {
          try {
            results.weight[side.label] = weigh(side.build, work, side.label);
            log(`weight    ${side.label.padEnd(9)} ${results.weight[side.label].packages} packages, ${results.weight[side.label].tarballBytes} B packed`);
          } catch (err) {
            results.weight[side.label] = { error: String(err.stderr || err.message).trim().split('\n').slice(0, 5).join('\n') };
            problems.push(`weight ${side.label}: ${results.weight[side.label].error}`);
          }
        }
      } catch (err) {
        results.weight = { error: String(err.stderr || err.message).trim().split('\n').slice(0, 5).join('\n') };
        problems.push(`weight: ${results.weight.error}`);
      } finally {
        fs.rmSync(work, { recursive: true, force: true });
      }
    }
  } finally {
    cleanUp();
  }

  results.env.loadAvgAtEnd = os.loadavg();
  results.env.runtimeS = Math.round((Date.now() - started) / 100) / 10;
  results.problems = problems;
  console.log(report(results, args));

  const date = new Date(started).toISOString().slice(0, 19).replace(/:/g, '-');
  const out = args.out ?? path.join(benchDir, 'results', `compare-builds-${base.sha.slice(0, 7)}-${date}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`saved ${out.startsWith(`${process.cwd()}${path.sep}`) ? path.relative(process.cwd(), out) : out}`);
  if (problems.length) process.exitCode = 1;
}

function report(results, args) {
  const { base, candidate } = results.builds;
  const out = [''];
  const name = (b) => (b.kind === 'rev' ? `${b.sha.slice(0, 7)}${b.rev !== b.sha && !b.sha.startsWith(b.rev) ? ` (${b.rev})` : ''}` : `working dist/ (HEAD ${b.sha.slice(0, 7)}${b.changedUnderSrc.length ? `, ${b.changedUnderSrc.length} paths changed under src/` : ''}${b.staleAgainstSrc ? ', OLDER than src/' : ''}${b.orphans?.length ? `, ${b.orphans.length} leftover files in dist/` : ''})`);
  out.push(`compare-builds — base ${name(base)} against candidate ${name(candidate)}`);
  out.push(`node ${process.version}, ${results.env.cpus} cores (${results.env.cpuModel}); load average ${results.env.loadAvgAtStart.map((x) => fmt(x, 2)).join(' ')} at the start, ${results.env.loadAvgAtEnd.map((x) => fmt(x, 2)).join(' ')} at the end`);
  out.push('');

  const timed = [['workload', 'unit', 'better', 'base', 'candidate', 'cand ÷ base', 'spread (min–max)', '1.00 within', 'means: cand ÷ base (min–max)', 'rounds']];
  const row = (what, unit, better, s, digits, means) =>
    timed.push([
      what,
      unit,
      better,
      fmt(s.base, digits),
      fmt(s.candidate, digits),
      fmt(s.ratio, 3),
      s.rounds ? `${fmt(s.min, 3)}–${fmt(s.max, 3)}` : '—',
      s.rounds ? (s.min <= 1 && s.max >= 1 ? 'yes' : 'no') : '—',
      means?.rounds ? `${fmt(means.ratio, 3)} (${fmt(means.min, 3)}–${fmt(means.max, 3)})` : '',
      `${s.rounds}/${args.rounds}`,
    ]);
  if (results.w1) {
    row('W1 throughput', 'req/s', 'higher', results.w1.rps, 0);
    row('W1 p99 latency', 'ms', 'lower', results.w1.p99, 1);
  }
  for (const [id, m] of Object.entries(results.micro ?? {})) row(MICRO.find((x) => x.id === id).what, 'µs/call', 'lower', m.us, 2, m.meanUs);
  if (timed.length > 1) {
    out.push(textTable(timed));
    out.push(
      `(base and candidate: medians over the rounds; cand ÷ base: the median of the rounds' ratios, each round's pair measured back to back, the order flipped every round; ` +
        `W1: ${LOAD_DEFAULTS.connections} connections, ${LOAD_DEFAULTS.warmup} s warm-up + ${LOAD_DEFAULTS.duration} s, a fresh app process a measurement; ` +
        `micro: a process per build a round, ${args.blocks} alternating blocks of ~${PAIRED.blockMs} ms after ${PAIRED.settleBlocks} untimed ones, the round's figure each side's median block and the median of the blocks' ratios; ` +
        `means: the same from the mean µs of all the round's calls, which counts the slow blocks (GC pauses, or the machine) the medians leave out)`,
    );
    out.push('');
  }

  if (results.weight && !results.weight.error) {
    const w = results.weight;
    const wrows = [['install weight (npm pack; npm install --omit=dev beside express)', 'base', 'candidate', 'cand − base']];
    const wrow = (what, key, digits = 0) => {
      const a = w.base?.[key];
      const b = w.candidate?.[key];
      wrows.push([what, a == null ? 'ERROR' : fmt(a, digits), b == null ? 'ERROR' : fmt(b, digits), a == null || b == null ? '—' : signed(b - a, digits)]);
    };
    wrow('tarball bytes', 'tarballBytes');
    wrow('unpacked bytes', 'unpackedBytes');
    wrow('files in the tarball', 'files');
    wrow(`packages installed (express ${w.expressAlone.express} alone: ${w.expressAlone.packages})`, 'packages');
    wrow(`node_modules KiB, du -sk (express alone: ${fmt(w.expressAlone.nodeModulesKib, 0)})`, 'nodeModulesKib');
    out.push(textTable(wrows));
    const keys = [...new Set([...Object.keys(w.base?.each ?? {}), ...Object.keys(w.candidate?.each ?? {})])].sort();
    const differ = keys.filter((k) => w.base?.each && w.candidate?.each && (!w.base.each[k] || !w.candidate.each[k] || w.base.each[k].version !== w.candidate.each[k].version));
    out.push(differ.length ? `packages that differ: ${differ.map((k) => `${k.replace(/^node_modules\//, '')} ${w.base.each[k]?.version ?? 'absent'} → ${w.candidate.each[k]?.version ?? 'absent'}`).join('; ')}` : 'the same packages at the same versions in both installs');
    out.push('');
  }

  const d = results.disabled;
  if (d) {
    const ok = (s) => d[s] && !d[s].error;
    const drows = [['a disabled app: import, createHarness({ enabled: false }), start()', 'base', 'candidate', 'cand − base']];
    const drow = (what, pick) => {
      const a = ok('base') ? pick(d.base) : null;
      const b = ok('candidate') ? pick(d.candidate) : null;
      drows.push([what, a == null ? 'ERROR' : fmt(a, 0), b == null ? 'ERROR' : fmt(b, 0), a == null || b == null ? '—' : signed(b - a)]);
    };
    drow('modules from dist/ after createHarness', (x) => x.afterCreate.dist.length);
    drow('modules from dist/ after start()', (x) => x.afterStart.dist.length);
    drow('bytes of those modules', (x) => x.afterStart.distBytes);
    drow('modules of other packages', (x) => Object.values(x.afterStart.packages).reduce((a, b) => a + b, 0));
    drow('node: built-ins', (x) => x.afterStart.builtins);
    out.push(textTable(drows));
    if (ok('base') && ok('candidate')) {
      const pk = (x) => Object.keys(x.afterStart.packages).sort().join(', ') || 'none';
      out.push(`other packages loaded: base ${pk(d.base)}; candidate ${pk(d.candidate)}`);
      const a = new Set(d.base.afterStart.dist);
      const b = new Set(d.candidate.afterStart.dist);
      const onlyBase = [...a].filter((x) => !b.has(x));
      const onlyCand = [...b].filter((x) => !a.has(x));
      out.push(`dist/ modules only the base loads (${onlyBase.length}): ${onlyBase.join(', ') || 'none'}`);
      out.push(`dist/ modules only the candidate loads (${onlyCand.length}): ${onlyCand.join(', ') || 'none'}`);
    }
    out.push('');
  }

  if (results.problems.length) {
    out.push('problems:');
    out.push(...results.problems.map((p) => `  ${p.split('\n')[0]}`));
    out.push('');
  }
  out.push(`total runtime ${fmt(results.env.runtimeS)} s`);
  return out.join('\n');
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : err);
  process.exit(1);
});
