// One load measurement of the harness's Express app (bench/app.js, subject `harness`), measured the
// way bench/run.js measures its load workloads: a fresh app process, the workload's switches over
// POST /__scenario__, every distinct request checked once, then autocannon (127.0.0.1, closed
// loop) for a warm-up and a timed run, every response checked (status and exact body). The figure
// is what run.js reports: requests/s = completed requests ÷ autocannon's duration, and its p99 ms.
// Used by bench/compare-builds.js, which points the app at one build or the other through
// BENCH_HARNESS_LOADER (bench/lib/harness-glue.js loadHarness).
import autocannon from 'autocannon';
import { buildWorkload, HARNESS_HEADER } from './workloads.js';
import { checkedRequests } from './checked-requests.js';
import { startChild, stopChild } from './proc.js';

/** bench/run.js's defaults for a load measurement (BENCH_CONNECTIONS, BENCH_WARMUP, BENCH_DURATION). */
export const LOAD_DEFAULTS = { connections: 16, warmup: 1.5, duration: 5 };

function requestInit(v) {
  const headers = { [HARNESS_HEADER]: v.testId };
  if (v.body !== undefined) headers['content-type'] = 'application/json';
  return { method: v.method, headers, body: v.body };
}

async function checkOnce(base, v) {
  const r = await fetch(base + v.path, requestInit(v));
  const text = await r.text();
  if (!v.check(r.status, text)) throw new Error(`response check: ${v.method} ${v.path} (test ID ${v.testId}) answered ${r.status} ${text.slice(0, 300)}; expected ${v.expect}`);
}

async function switchAll(base, switches) {
  for (const { testId, scenarioId } of switches) {
    const r = await fetch(`${base}/__scenario__`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [HARNESS_HEADER]: testId },
      body: JSON.stringify({ scenario: scenarioId }),
    });
    const text = await r.text();
    let answer = {};
    try {
      answer = JSON.parse(text);
    } catch {
      // not JSON: reported below
    }
    if (r.status !== 200 || answer.success !== true || answer.scenarioId !== scenarioId) throw new Error(`switch ${testId} -> ${scenarioId} answered ${r.status} ${text.slice(0, 300)}`);
  }
}

function runAutocannon(base, spec, { connections, duration }, counters) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections,
        pipelining: 1,
        duration,
        timeout: 10,
        requests: checkedRequests(spec, HARNESS_HEADER, counters),
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });
}

/**
 * Measure one app workload (W1, W2-…, W3; not W3-own or W4) on the harness build that `loader`
 * (a BENCH_HARNESS_LOADER module) exports, in an app process of its own.
 */
export async function measureHarnessLoad(workload, loader, options = {}) {
  const { connections, warmup, duration } = { ...LOAD_DEFAULTS, ...options };
  const spec = buildWorkload(workload);
  if (spec.kind !== 'app' || spec.testMocks) throw new Error(`measureHarnessLoad: ${workload} is not a plain app workload`);
  let app;
  const started = Date.now();
  try {
    app = await startChild('app.js', ['harness', workload, ''], { env: { BENCH_HARNESS_LOADER: loader } });
    const base = `http://127.0.0.1:${app.msg.port}`;
    await switchAll(base, spec.switches);
    for (let c = 0; c < spec.variantCount; c++) await checkOnce(base, spec.variant(c));
    const counters = { next: 0, checked: 0, bad: 0, badSample: null };
    if (warmup > 0) await runAutocannon(base, spec, { connections, duration: warmup }, counters);
    const warmBad = counters.bad;
    counters.checked = 0;
    const r = await runAutocannon(base, spec, { connections, duration }, counters);
    const valid = r.errors === 0 && r.timeouts === 0 && r.non2xx === 0 && counters.bad === 0 && warmBad === 0 && r.requests.total > 0;
    return {
      valid,
      rps: r.requests.total / r.duration,
      latencyP50Ms: r.latency.p50,
      latencyP99Ms: r.latency.p99,
      latencyMeanMs: r.latency.average,
      requests: r.requests.total,
      durationS: r.duration,
      errors: r.errors,
      timeouts: r.timeouts,
      non2xx: r.non2xx,
      mismatches: counters.bad,
      checkedResponses: counters.checked,
      ...(counters.badSample ? { badSample: counters.badSample } : {}),
      wallS: (Date.now() - started) / 1000,
    };
  } catch (err) {
    return { valid: false, error: String(err && err.message ? err.message : err), wallS: (Date.now() - started) / 1000 };
  } finally {
    if (app) await stopChild(app.child);
  }
}
