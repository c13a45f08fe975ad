// The timing loop of the micro-benchmarks, shared by bench/micro.js (Node) and
// bench/runtime-micro.js (Bun and Deno, which run it unchanged): sequential `await call(url)` +
// reading the JSON body, `n` times after `warmup` untimed calls, the answer checked first.
import { setImmediate } from 'node:timers';

// A loop of awaited calls that are answered in memory never leaves the microtask queue, so work a
// client defers to the event loop (undici destroys each response body in a setImmediate) would
// pile up for the whole run: 60,000 pending immediates holding ~2 KB each, promoted by every
// scavenge, made the means mostly GC and swing ±25% between rounds. Any real app turns its event
// loop between requests; the loop below turns it every YIELD_EVERY calls and counts that time.
const YIELD_EVERY = 100;
const turnEventLoop = () => new Promise((resolve) => setImmediate(resolve));
/** Milliseconds with sub-microsecond resolution, on every runtime (the Web API they share). */
const now = () => globalThis.performance.now();

/**
 * Time `n` sequential calls of `call(url)` (fetch, or anything shaped like its Response), after a
 * check that the first answer is `bodyText` (a subject that is not answered is not measured) and
 * `warmup` untimed calls. Every answer must be `{ ok: true }`; the others are counted in `bad`.
 * @returns {Promise<{ meanUs: number, p50Us: number, p99Us: number, bad: number }>}
 */
export async function timeSequentialCalls({ call, url, bodyText, warmup, n, label }) {
  const first = await call(url);
  const firstBody = await first.text();
  if (first.status !== 200 || JSON.stringify(JSON.parse(firstBody)) !== bodyText) {
    throw new Error(`${label}: unexpected response ${first.status} ${firstBody}`);
  }
  for (let i = 0; i < warmup; i++) {
    const r = await call(url);
    await r.json();
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await turnEventLoop();
  }
  const times = new Float64Array(n);
  let bad = 0;
  const t0 = now();
  let prev = t0;
  for (let i = 0; i < n; i++) {
    const r = await call(url);
    const j = await r.json();
    if (j.ok !== true) bad++;
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await turnEventLoop();
    const t = now();
    times[i] = (t - prev) * 1000;
    prev = t;
  }
  const totalUs = (now() - t0) * 1000;
  times.sort();
  return { meanUs: totalUs / n, p50Us: times[Math.floor(n * 0.5)], p99Us: times[Math.min(n - 1, Math.floor(n * 0.99))], bad };
}
