import type { Worker as NodeWorker, WorkerOptions } from 'node:worker_threads';
import { attachedHarness } from '../attached-harness.js';
import { workerGuardSource, type WorkerGuardRules } from './worker-guard-source.js';

export interface WorkerPatchOptions {
  /** The rules for a worker starting now; `undefined` when no started harness keeps calls on the machine. */
  rules(): WorkerGuardRules | undefined;
  report(message: string): void;
}

type WorkerArgs = [script: string | URL, options?: WorkerOptions];

/** A `"use strict"` directive opening a script: the guard goes after it, so the script stays strict. */
const STRICT_DIRECTIVE = /^\s*(['"])use strict\1\s*;?/;

/**
 * The ways to start this worker with the guard, best first. An eval worker's script starts with
 * it (Node loads no `--import` module into eval workers, not even inherited ones). A file worker
 * gets it as one more `--import`: in its NODE_OPTIONS, which keeps the inherited `execArgv` as it
 * is; else in `execArgv`, which keeps the inherited NODE_OPTIONS as they are.
 * @note Each can be refused: Node re-reads a worker's NODE_OPTIONS when it is given an env, and
 * refuses process-wide options there (`--openssl-legacy-provider`, `--use-openssl-ca`); an
 * explicit `execArgv` list replaces the inherited one, and Node refuses process-wide flags in it
 * (`--max-old-space-size`, `--title`).
 */
function guardedArgs([script, options = {}]: WorkerArgs, rules: WorkerGuardRules): WorkerArgs[] {
  if (options.eval === true && typeof script === 'string') {
    const directive = STRICT_DIRECTIVE.exec(script)?.[0] ?? '';
    // On the script's first line, so its line numbers stay as written.
    return [[`${directive}${workerGuardSource(rules)}${script.slice(directive.length)}`, options]];
  }
  const ways: WorkerArgs[] = [];
  // A worker with env: SHARE_ENV reads no NODE_OPTIONS of its own.
  if (typeof options.env !== 'symbol') {
    const env: Record<string, string | undefined> = { ...((options.env as Record<string, string | undefined> | undefined) ?? process.env) };
    const value = env.NODE_OPTIONS;
    const guard = `--import=data:text/javascript,${encodeURIComponent(workerGuardSource(rules, { value }))}`;
    env.NODE_OPTIONS = value === undefined || value === '' ? guard : `${value} ${guard}`;
    ways.push([script, { ...options, env }]);
  }
  const execArgv = [...(options.execArgv ?? process.execArgv), '--import', `data:text/javascript,${encodeURIComponent(workerGuardSource(rules))}`];
  ways.push([script, { ...options, execArgv }]);
  return ways;
}

/** The worker, started the first way Node accepts; else why Node refused the last one. */
function startGuarded(target: typeof NodeWorker, ways: WorkerArgs[], newTarget: new (...args: never[]) => unknown): NodeWorker | { refusal: string } {
  let refusal = '';
  for (const args of ways) {
    try {
      return Reflect.construct(target, args, newTarget) as NodeWorker;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
      refusal = (error as Error).message;
    }
  }
  return { refusal };
}

/**
 * Whether `worker` is one of Node's own threads: the module-hooks thread `module.register()`
 * starts (tsx and ts-node do, and Vite's module runner on a Node without `registerHooks`, which
 * Node 22 has from 22.15), which runs loader hooks and no app code: nothing of the app's to guard.
 * @note Node makes those from `InternalWorker`, its unexported subclass of `Worker`
 * (lib/internal/worker.js; lib/internal/modules/esm/hooks.js starts the hooks thread with it).
 * `worker_threads.isInternalThread` (Node 22.14+) tells only the thread itself, not the one that
 * watches it start; the class is what the parent can see, on every Node line (issue 42, item 2).
 * @see https://github.com/nodejs/node/blob/v22.12.0/lib/internal/worker.js
 */
function isNodeInternal(worker: NodeWorker): boolean {
  const made = worker.constructor as ((...args: never[]) => unknown) | undefined;
  // Its source passes Node's private `kIsInternal` flag to Worker: no app's class of that name does.
  return typeof made === 'function' && made.name === 'InternalWorker' && /\bkIsInternal\b/.test(Function.prototype.toString.call(made));
}

/**
 * Why a worker made from a Worker class taken early has no guard, and what to do. Under register
 * the advice to load register would be what is already done: there, a module loaded before it
 * took the class.
 */
function earlyWorkerMessage(threadId: number, unguarded: string): string {
  const started = `Worker thread ${threadId} started without the harness's guard: it was made from a Worker class taken from node:worker_threads before`;
  return attachedHarness() === undefined
    ? `${started} harness.start(), ${unguarded}. Start the harness before the module that creates the worker is loaded, or run the app with --import scenario-harness/register.`
    : `${started} scenario-harness/register started the harness, ${unguarded}. A module loaded before register took it: modules preloaded with --require run before every --import, and --import modules run in the order given. Put --import=scenario-harness/register first, and load the module that starts workers after it (as an --import after it rather than a --require).`;
}

/**
 * Give every worker thread the app starts while a harness keeps calls on the machine
 * (`unhandled: 'error'`) a socket guard of its own: a worker's `fetch` to a host that is not
 * loopback or allowed fails with the harness's message instead of reaching DNS and the network
 * (issue 23, item 7). Replaces `worker_threads.Worker` (its ESM binding too) with a proxy of it,
 * so `instanceof`, statics and subclasses behave as before; a worker that cannot be guarded is
 * reported.
 * @see decisions/worker-threads.md (a guard rather than a bridge to the main thread's harness)
 * @returns a function that puts the original `Worker` back.
 */
export function installWorkerPatch({ rules, report }: WorkerPatchOptions): () => void {
  const workerThreads = process.getBuiltinModule('node:worker_threads');
  const syncEsmExports = () => process.getBuiltinModule('node:module').syncBuiltinESMExports();
  const Original = workerThreads.Worker;
  const guarded = new WeakSet<NodeWorker>();
  let reported = false;
  const reportOnce = (message: string) => {
    if (reported) return;
    reported = true;
    report(message);
  };
  const unguarded = `so the harness runs with unhandled: 'error' but this worker's calls to hosts that are not loopback may reach the network`;

  const Worker = new Proxy(Original, {
    construct(target, args: WorkerArgs, newTarget) {
      const current = rules();
      if (current === undefined) return Reflect.construct(target, args, newTarget);
      const started = startGuarded(target, guardedArgs(args, current), newTarget as new (...args: never[]) => unknown);
      if (!('refusal' in started)) {
        guarded.add(started);
        return started;
      }
      const worker = Reflect.construct(target, args, newTarget) as NodeWorker;
      reportOnce(`Worker thread ${worker.threadId} started without the harness's guard: Node refused the option that carries it (${started.refusal}), ${unguarded}. Start the worker with options Node accepts in a worker, or start a harness in it.`);
      return worker;
    },
  });

  // Workers made from a Worker class taken before start() (a CommonJS destructure, a worker pool library).
  const channel = process.getBuiltinModule('node:diagnostics_channel');
  const onWorker = (message: unknown) => {
    const worker = (message as { worker?: NodeWorker }).worker;
    // Published from inside Worker's constructor: ours marks the worker once that returns.
    queueMicrotask(() => {
      if (worker === undefined || guarded.has(worker) || isNodeInternal(worker) || rules() === undefined) return;
      reportOnce(earlyWorkerMessage(worker.threadId, unguarded));
    });
  };

  workerThreads.Worker = Worker;
  syncEsmExports();
  channel.subscribe('worker_threads', onWorker);
  return () => {
    channel.unsubscribe('worker_threads', onWorker);
    if (workerThreads.Worker !== Worker) return;
    workerThreads.Worker = Original;
    syncEsmExports();
  };
}
