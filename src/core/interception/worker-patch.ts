import type { Worker as NodeWorker, WorkerOptions } from 'node:worker_threads';
import { workerGuardSource, type WorkerGuardRules } from './worker-guard-source.js';

export interface WorkerPatchOptions {
  /** The rules for a worker starting now; `undefined` when no started harness keeps calls on the machine. */
  rules(): WorkerGuardRules | undefined;
  report(message: string): void;
}

/** A `"use strict"` directive opening a script: the guard goes after it, so the script stays strict. */
const STRICT_DIRECTIVE = /^\s*(['"])use strict\1\s*;?/;

/**
 * The worker's script and options with the guard added: an eval worker's script starts with the
 * guard (Node loads no `--import` module into eval workers, not even inherited ones); a file
 * worker gets it as one more `--import` in its NODE_OPTIONS.
 * @note NODE_OPTIONS in the worker's env rather than `execArgv`: an explicit `execArgv` list
 * replaces the inherited one, and Node refuses a worker whose inherited flags include
 * process-wide ones (`--max-old-space-size`, `--title`), while the env keeps inheritance as it is.
 * @returns `undefined` for a worker that shares the process's env (`SHARE_ENV`), which Node
 * reads no NODE_OPTIONS from.
 */
function withGuard(script: string | URL, options: WorkerOptions, rules: WorkerGuardRules): [string | URL, WorkerOptions] | undefined {
  if (options.eval === true && typeof script === 'string') {
    const directive = STRICT_DIRECTIVE.exec(script)?.[0] ?? '';
    // On the script's first line, so its line numbers stay as written.
    return [`${directive}${workerGuardSource(rules)}${script.slice(directive.length)}`, options];
  }
  if (typeof options.env === 'symbol') return undefined;
  const env: Record<string, string | undefined> = { ...((options.env as Record<string, string | undefined> | undefined) ?? process.env) };
  const value = env.NODE_OPTIONS;
  const guard = `--import=data:text/javascript,${encodeURIComponent(workerGuardSource(rules, { value }))}`;
  env.NODE_OPTIONS = value === undefined || value === '' ? guard : `${value} ${guard}`;
  return [script, { ...options, env }];
}

/**
 * Give every worker thread the app starts while a harness keeps calls on the machine
 * (`unhandled: 'error'`) a socket guard of its own: a worker's `fetch` to a host that is not
 * loopback or allowed fails with the harness's message instead of reaching DNS and the network
 * (issue 23, item 7). Replaces `worker_threads.Worker` (its ESM binding too); a worker made from
 * a `Worker` taken before this ran is reported, since it cannot be guarded.
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

  class Worker extends Original {
    constructor(script: string | URL, options: WorkerOptions = {}) {
      const current = rules();
      const changed = current === undefined ? undefined : withGuard(script, options, current);
      super(...(changed ?? [script, options]));
      if (changed !== undefined) guarded.add(this);
      else if (current !== undefined) {
        reportOnce(
          `A worker thread started with env: SHARE_ENV, so its calls cannot be guarded: the harness runs with unhandled: 'error', but this worker's calls to hosts that are not loopback may reach the network. Give the worker its own env, or start a harness in it.`,
        );
      }
    }
  }

  // Workers made from a Worker class taken before start() (a CommonJS destructure, a worker pool library).
  const channel = process.getBuiltinModule('node:diagnostics_channel');
  const onWorker = (message: unknown) => {
    const worker = (message as { worker?: NodeWorker }).worker;
    // Published from inside Worker's constructor: ours marks the worker once that returns.
    queueMicrotask(() => {
      if (worker === undefined || guarded.has(worker) || rules() === undefined) return;
      reportOnce(
      `Worker thread ${worker.threadId} started without the harness's guard: it was made from a Worker class taken from node:worker_threads before harness.start(), so the harness runs with unhandled: 'error' but this worker's calls to hosts that are not loopback may reach the network. Start the harness before the module that creates the worker is loaded, or run the app with --import scenario-harness/register.`,
      );
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
