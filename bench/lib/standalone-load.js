// Shared by bench/standalone.js and bench/standalone-wiremock.js: the two workloads of the
// standalone-server benchmark, the load run (autocannon, every response checked) and the
// CPU accounting. Subjects are started by the callers; this file only talks HTTP to them.
import autocannon from 'autocannon';
import fs from 'node:fs';
import { buildWorkload, HARNESS_HEADER, MOCK_ORIGIN } from './workloads.js';
import { textTable } from './text-table.js';

const env = process.env;
const QUICK = !!env.BENCH_QUICK && env.BENCH_QUICK !== '0';
const num = (v, d) => (v === undefined || v === '' || Number.isNaN(Number(v)) ? d : Number(v));

/** Settings, from the same environment variables as bench/run.js. */
export const CFG = {
  quick: QUICK,
  duration: num(env.BENCH_DURATION, QUICK ? 1 : 4),
  warmup: num(env.BENCH_WARMUP, QUICK ? 0.25 : 2),
  connections: num(env.BENCH_CONNECTIONS, 16),
  busyCores: num(env.BENCH_BUSY_CORES, 0.2),
  busyRetries: num(env.BENCH_BUSY_RETRIES, QUICK ? 0 : 2),
};

/** True when other processes used more than BENCH_BUSY_CORES during the run. */
export const isBusy = (r) => typeof r.foreignCpu === 'number' && r.foreignCpu > CFG.busyCores;

/**
 * Measure every (workload, subject) pair, then measure again the runs taken while other
 * processes were busy (up to BENCH_BUSY_RETRIES extra passes), as bench/run.js does: contention
 * only ever lowers throughput, so the highest valid sample is kept. `measureOne(subject,
 * workload)` runs one measurement; `report(workload, subject, r, note)` prints it.
 */
export async function measureAll(workloads, subjects, measureOne, report) {
  const results = {};
  for (const workload of workloads) {
    for (const subject of subjects) {
      const r = await measureOne(subject, workload);
      (results[subject] ||= {})[workload] = { ...r, samples: 1 };
      report(workload, subject, r, '');
    }
  }
  for (let pass = 0; pass < CFG.busyRetries; pass++) {
    for (const workload of workloads) {
      for (const subject of subjects) {
        const kept = results[subject][workload];
        if (!kept.valid || !isBusy(kept)) continue;
        const r = await measureOne(subject, workload);
        report(workload, subject, r, '  (again: the machine was busy)');
        const better = r.valid && r.rps > kept.rps;
        results[subject][workload] = { ...(better ? r : kept), samples: kept.samples + 1 };
      }
    }
  }
  return results;
}

/**
 * S1: one test ID on its scenario (bench W1). S1000: 1,000 test IDs, each switched to its own
 * scenario, requests round-robin over them (bench W3). Every request is one mocked GET.
 */
export const WORKLOADS = { S1: 'W1', S1000: 'W3' };

export function buildStandaloneWorkload(name) {
  const spec = buildWorkload(WORKLOADS[name]);
  return { ...spec, name, title: name === 'S1' ? 'S1: 1 test ID' : `S1000: ${spec.switches.length.toLocaleString('en-US')} test IDs, round-robin` };
}

/** The workload's scenarios as a scenario file (scenario-harness's file format). */
export function scenarioFile(spec) {
  return Object.fromEntries(
    spec.scenarios.map(({ id, mocks }) => [id, { name: id, mocks: mocks.map(({ method, path, body }) => ({ method, url: `${MOCK_ORIGIN}${path}`, response: { body } })) }]),
  );
}

/** The expected answer to the request that `testId` sends, for subjects that answer without scenarios (floors, WireMock). */
export function answersByTestId(spec) {
  const answers = new Map();
  for (let c = 0; c < spec.variantCount; c++) {
    const v = spec.variant(c);
    answers.set(v.testId, { path: v.path, body: v.expect });
  }
  return answers;
}

export const log = (...a) => console.error(...a);

export async function pool(items, width, fn) {
  let i = 0;
  const workers = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (i < items.length) await fn(items[i++]);
  });
  await Promise.all(workers);
}

// ---- CPU accounting (Linux /proc), as in bench/run.js: how busy were other processes?
const TICK_S = 0.01; // USER_HZ is 100 on Linux
function readProcStatBusyS() {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return (f[0] + f[1] + f[2] + f[5] + f[6]) * TICK_S;
  } catch {
    return null;
  }
}
/** CPU seconds of a process and its descendants that already exited (cutime, cstime) are not counted. */
function readPidCpuS(pid) {
  try {
    const st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_S;
  } catch {
    return null;
  }
}
function cpuSnapshot(pids) {
  const own = process.cpuUsage();
  return { wall: process.hrtime.bigint(), total: readProcStatBusyS(), parent: (own.user + own.system) / 1e6, children: pids.map(readPidCpuS) };
}
function cores(a, b, pick) {
  if (a.total === null || b.total === null || a.children.some((x) => x === null) || b.children.some((x) => x === null)) return null;
  return pick(a, b) / (Number(b.wall - a.wall) / 1e9);
}
const sum = (xs) => xs.reduce((x, y) => x + y, 0);

function runAutocannon(base, spec, pathOf, duration, counters) {
  const opts = {
    url: base,
    connections: CFG.connections,
    pipelining: 1,
    duration,
    timeout: 10,
    requests: [
      {
        setupRequest: (req, ctx) => {
          const v = spec.variant(counters.next++);
          ctx.v = v;
          req.method = v.method;
          req.path = pathOf(v);
          req.headers = { [HARNESS_HEADER]: v.testId };
          req.body = undefined;
          return req;
        },
        onResponse: (status, body, ctx) => {
          counters.checked++;
          if (!ctx.v || !ctx.v.check(status, body)) {
            counters.bad++;
            if (!counters.badSample) counters.badSample = { status, body: String(body).slice(0, 300), expected: ctx.v?.expect };
          }
        },
      },
    ],
  };
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, res) => {
      if (err) return reject(err);
      const cpu = process.cpuUsage(cpu0);
      res.loadGenCpu = (cpu.user + cpu.system) / (Number(process.hrtime.bigint() - t0) / 1000);
      resolve(res);
    });
  });
}

/**
 * Check every distinct request once, warm up, then measure. `pathOf(v)` is the path the
 * subject is asked (the upstream in the path, or the bare path); `pids` are the subject's
 * processes, for its CPU figure.
 */
export async function measure({ base, spec, pathOf, pids }) {
  const variants = [];
  for (let c = 0; c < spec.variantCount; c++) variants.push(spec.variant(c));
  await pool(variants, 8, async (v) => {
    const r = await fetch(base + pathOf(v), { headers: { [HARNESS_HEADER]: v.testId } });
    const text = await r.text();
    if (!v.check(r.status, text)) throw new Error(`check: GET ${pathOf(v)} (test ID ${v.testId}) answered ${r.status} ${text.slice(0, 300)}; expected ${v.expect}`);
  });
  const counters = { next: 0, checked: 0, bad: 0, badSample: null };
  if (CFG.warmup > 0) await runAutocannon(base, spec, pathOf, CFG.warmup, counters);
  const warmBad = counters.bad;
  counters.checked = 0;
  const a = cpuSnapshot(pids);
  const r = await runAutocannon(base, spec, pathOf, CFG.duration, counters);
  const b = cpuSnapshot(pids);
  const valid = r.errors === 0 && r.timeouts === 0 && r.non2xx === 0 && counters.bad === 0 && warmBad === 0 && r.requests.total > 0;
  return {
    valid,
    rps: r.requests.total / r.duration,
    requests: r.requests.total,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    mismatches: counters.bad,
    checkedResponses: counters.checked,
    precheckedRequests: variants.length,
    loadGenCpu: r.loadGenCpu,
    subjectCpu: cores(a, b, (x, y) => sum(y.children) - sum(x.children)),
    foreignCpu: cores(a, b, (x, y) => Math.max(0, y.total - x.total - (y.parent - x.parent) - (sum(y.children) - sum(x.children)))),
    ...(counters.badSample ? { badSample: counters.badSample } : {}),
  };
}

const fmtInt = (n) => (n === undefined || n === null || !Number.isFinite(n) ? '—' : Math.round(n).toLocaleString('en-US'));
const fmt1 = (n) => (n === undefined || n === null || !Number.isFinite(n) ? '—' : n.toFixed(1));
const fmt2 = (n) => (n === undefined || n === null || !Number.isFinite(n) ? '—' : n.toFixed(2));

/** `12,345 req/s, p99 3.0 ms` (or why there is no figure). */
export function describeResult(r) {
  if (r.error) return `ERROR ${r.error.split('\n')[0]}`;
  return `${fmtInt(r.rps)} req/s  p99 ${fmt1(r.latencyP99Ms)} ms  (subject ${fmt2(r.subjectCpu)} cores, load generator ${fmt2(r.loadGenCpu)}, others ${fmt2(r.foreignCpu)})${r.valid ? '' : '  INVALID'}`;
}

/** One row per subject, one column pair per workload. */
export function resultTable(results, labels) {
  const busyMark = (r) => (isBusy(r) ? ' *' : '');
  const workloads = Object.keys(WORKLOADS);
  const rows = [['subject', ...workloads.flatMap((w) => [`${w} req/s`, `${w} p99 ms`])]];
  for (const [subject, label] of Object.entries(labels)) {
    if (!results[subject]) continue;
    rows.push([label, ...workloads.flatMap((w) => {
      const r = results[subject][w];
      if (!r) return ['—', '—'];
      if (r.error || !r.valid) return ['INVALID', '—'];
      return [`${fmtInt(r.rps)}${busyMark(r)}`, fmt1(r.latencyP99Ms)];
    })]);
  }
  return textTable(rows)
    .concat(Object.values(results).some((byWorkload) => Object.values(byWorkload).some(isBusy)) ? `\n* measured while other processes used more than ${CFG.busyCores} cores: a low figure` : '');
}
