import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';

type Detector = typeof import('redos-detector');

/** What redos-detector said of one pattern, as plain data: it crosses from the checking thread. */
export type DetectorOutcome =
  | { safe: boolean; error: 'hitMaxScore' | 'hitMaxSteps' | 'timedOut' | null; /** Its time was cut short by the call's total. */ cut: boolean }
  | { thrown: string };

/** One pattern to check: its key in the verdicts, and what redos-detector is given. */
export interface RegexCheck {
  key: string;
  source: string;
  options: { caseInsensitive: boolean; unicode: boolean; dotAll: boolean; multiLine: boolean };
}

export interface RegexCheckBudget {
  /** redos-detector's `timeout` for one pattern. */
  perPatternMs: number;
  /** redos-detector's `maxSteps` for one pattern. */
  maxSteps: number;
  /** All the patterns of one call together; past it the thread is stopped, whatever it is doing. */
  totalMs: number;
}

/** Patterns like those tests send (a URL, a header, an id), checked once when a thread starts. */
const WARM_UP_PATTERNS = [String.raw`^(?:^https:\/\/api\.example\.test\/users\/(\d+)$)$`, String.raw`^(?:^Bearer \S+$)$`, String.raw`^[0-9a-f]{8}-[a-z]+(?:\.json)?$`];

/**
 * The checking thread's script (CommonJS, run with `eval`): it checks the patterns it is sent one
 * by one, reporting each verdict as it comes, and stops when the job's time is up.
 */
const WORKER_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const WARM_UP = ${JSON.stringify(WARM_UP_PATTERNS)};
const { isSafePattern } = require(workerData.detector);
parentPort.on('message', ({ job, checks, perPatternMs, maxSteps, totalMs }) => {
  const end = Date.now() + totalMs;
  for (const { key, source, options } of checks) {
    const left = end - Date.now();
    if (left <= 0) break;
    const timeout = Math.min(perPatternMs, left);
    let outcome;
    try {
      const result = isSafePattern(source, { ...options, timeout, maxSteps });
      outcome = { safe: result.safe, error: result.error, cut: timeout < perPatternMs };
    } catch (error) {
      outcome = { thrown: String(error && error.message) };
    }
    parentPort.postMessage({ job, key, outcome });
  }
  parentPort.postMessage({ job, done: true });
});
// Warm the detector's code before the first job: a cold thread took 18 ms for a URL pattern
// that takes 2 ms warm, and on a loaded machine a cold check ran past its 100 ms.
for (const source of WARM_UP) isSafePattern(source, { timeout: 1000, maxSteps: 20000 });
parentPort.postMessage({ ready: true });
`;

/**
 * Time the thread is given past `totalMs` to answer on its own, before it is stopped: between
 * its steps redos-detector looks at the clock, but one step of a deeply nested pattern can
 * take seconds.
 */
const STOP_GRACE_MS = 100;

let started: Promise<Worker> | undefined;
/** Jobs run one after another: each gets the thread, and its time, to itself. */
let queue: Promise<unknown> = Promise.resolve();
let jobs = 0;

/** The checking thread, started on first use and kept (unreferenced, so it never holds the process open). */
function checkingThread(detector: string): Promise<Worker> {
  if (started !== undefined) return started;
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(WORKER_SCRIPT, { eval: true, workerData: { detector } });
  worker.unref();
  const ready = new Promise<Worker>((resolve, reject) => {
    worker.once('message', () => resolve(worker));
    worker.once('error', reject);
    worker.once('exit', () => reject(new Error('The thread that checks regular expressions ended before it was ready.')));
  });
  started = ready;
  // A thread that ended (stopped, or failed) is started again on next use.
  worker.once('exit', () => {
    if (started === ready) started = undefined;
  });
  return ready;
}

let detector: Detector | undefined;

/**
 * What redos-detector says of one pattern, asked on this thread (the app waits meanwhile).
 * @note Loaded on first use, so a disabled harness never loads the detector.
 */
export function detectNow({ source, options }: RegexCheck, timeout: number, maxSteps: number): DetectorOutcome {
  detector ??= createRequire(import.meta.url)('redos-detector') as Detector;
  try {
    const result = detector.isSafePattern(source, { ...options, timeout, maxSteps });
    return { safe: result.safe, error: result.error, cut: false };
  } catch (error) {
    return { thrown: (error as Error).message };
  }
}

/** The checks on a worker thread; rejects when there is none to be had. */
function runOnThread(checks: readonly RegexCheck[], { perPatternMs, maxSteps, totalMs }: RegexCheckBudget): Promise<Map<string, DetectorOutcome>> {
  const run = async (): Promise<Map<string, DetectorOutcome>> => {
    const outcomes = new Map<string, DetectorOutcome>();
    const worker = await checkingThread(createRequire(import.meta.url).resolve('redos-detector'));
    const job = ++jobs;
    return new Promise((resolve, reject) => {
      const finish = (error?: Error) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', finish);
        worker.unref();
        if (error === undefined) resolve(outcomes);
        else reject(error);
      };
      const onMessage = (message: { job: number; key?: string; outcome?: DetectorOutcome; done?: boolean }) => {
        if (message.job !== job) return;
        if (message.key !== undefined && message.outcome !== undefined) outcomes.set(message.key, message.outcome);
        if (message.done === true) finish();
      };
      const timer = setTimeout(() => {
        // Stuck inside one step: stop the thread; the next job starts another.
        started = undefined;
        void worker.terminate();
        finish();
      }, totalMs + STOP_GRACE_MS);
      worker.ref();
      worker.on('message', onMessage);
      worker.once('error', finish);
      worker.postMessage({ job, checks, perPatternMs, maxSteps, totalMs });
    });
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

/**
 * The checks on this thread, one pattern per turn of the event loop so the app answers between
 * them: for when no worker thread can run the detector (a bundle that holds it but not its
 * file, Node's permission model without --allow-worker). Bounded like the thread's, except that
 * one step of a pathological pattern cannot be stopped here.
 */
async function runHere(checks: readonly RegexCheck[], { perPatternMs, maxSteps, totalMs }: RegexCheckBudget): Promise<Map<string, DetectorOutcome>> {
  const outcomes = new Map<string, DetectorOutcome>();
  const end = Date.now() + totalMs;
  for (const check of checks) {
    const left = end - Date.now();
    if (left <= 0) break;
    const timeout = Math.min(perPatternMs, left);
    const outcome = detectNow(check, timeout, maxSteps);
    outcomes.set(check.key, 'thrown' in outcome ? outcome : { ...outcome, cut: timeout < perPatternMs });
    await new Promise((resolve) => setImmediate(resolve));
  }
  return outcomes;
}

/**
 * Check patterns with redos-detector on a worker thread, so the app's event loop never waits for
 * it: each pattern gets `perPatternMs` (and `maxSteps`), all of them `totalMs`, and a thread still
 * busy a little after that is stopped (the next call starts a new one). Without a worker thread,
 * here, between turns of the event loop. The outcomes that came back in time, by key; a pattern
 * without one was not checked.
 */
export async function runRegexChecks(checks: readonly RegexCheck[], budget: RegexCheckBudget): Promise<Map<string, DetectorOutcome>> {
  if (checks.length === 0) return new Map();
  try {
    return await runOnThread(checks, budget);
  } catch {
    return runHere(checks, budget);
  }
}
