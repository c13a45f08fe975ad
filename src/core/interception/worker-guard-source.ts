import { compileHostList } from '../host-list.js';
import { isLoopbackWithoutLookup } from '../is-loopback.js';
import { connectTarget } from './connect-target.js';

/** What a worker thread's guard must know: the hosts it lets through besides loopback (`allowHosts`). */
export interface WorkerGuardRules {
  allowHosts: readonly (string | RegExp)[];
}

type SentHost = string | { source: string; flags: string };

interface SentConfig {
  allowHosts: SentHost[];
  /** Present when the guard came in through the worker's NODE_OPTIONS: the value to put back. */
  nodeOptions?: { value: string | undefined };
}

/**
 * Runs inside a worker thread, sent there as source text: it uses nothing but its arguments and
 * Node's builtins. Refuses, before any DNS lookup, each connection to a host that is neither
 * loopback nor allowed, unless a harness started in the worker itself (register, or the worker's
 * own `createHarness`), which then decides with its own mocks and socket guard.
 */
function guardWorkerThread(config: SentConfig, target: typeof connectTarget, isLoopback: typeof isLoopbackWithoutLookup, hostList: typeof compileHostList): void {
  // The worker's own code, and the processes it starts, see the NODE_OPTIONS the app gave it.
  if (config.nodeOptions !== undefined) {
    if (config.nodeOptions.value === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = config.nodeOptions.value;
  }
  const isAllowed = hostList(config.allowHosts.map((entry) => (typeof entry === 'string' ? entry : new RegExp(entry.source, entry.flags))));
  type Connect = (this: { destroy(error: Error): void }, ...args: unknown[]) => unknown;
  const prototype = process.getBuiltinModule('node:net').Socket.prototype as unknown as { connect: Connect };
  const original = prototype.connect;
  prototype.connect = function (...args) {
    const registry = (globalThis as Record<symbol, { listeners: unknown[] } | undefined>)[Symbol.for('scenario-harness.interception')];
    if (registry !== undefined && registry.listeners.length > 0) return original.apply(this, args);
    const aim = target(args);
    const hostname = aim?.host.replace(/^\[|\]$/g, '');
    if (aim === undefined || hostname === undefined || isLoopback(hostname) || isAllowed(hostname, aim.port)) return original.apply(this, args);
    const address = `${hostname}${aim.port === undefined ? '' : `:${aim.port}`}`;
    const error = Object.assign(
      new Error(
        `[scenario-harness] Blocked a connection to ${address} from a worker thread: the harness runs with unhandled: 'error' in the thread that started this worker, so nothing may leave the machine, and no harness answers calls in this thread. Make the call in the thread that runs the harness, start a harness in the worker too (createHarness(…).start() in the worker's code, or --import scenario-harness/register, which starts one in every worker loaded from a file), or list the host in createHarness({ allowHosts: ['${hostname}'] }) if it must be reached for real.`,
      ),
      { code: 'ERR_SCENARIO_HARNESS_BLOCKED' },
    );
    console.error(error.message);
    process.nextTick(() => this.destroy(error));
    return this;
  };
}

/**
 * The guard for one worker thread as JavaScript source: the guard function and the helpers it
 * shares with the main thread's socket guard, applied to `rules`. `restoreNodeOptions`: the
 * source travels in the worker's NODE_OPTIONS, whose value without it the guard puts back.
 * @note Source text, not a module file: an app that bundles scenario-harness has no file of ours
 * to point a worker at, and a `data:` URL or an eval prefix needs nothing on disk.
 */
export function workerGuardSource(rules: WorkerGuardRules, restoreNodeOptions?: { value: string | undefined }): string {
  const config: SentConfig = {
    allowHosts: rules.allowHosts.map((entry) => (entry instanceof RegExp ? { source: entry.source, flags: entry.flags } : entry)),
    ...(restoreNodeOptions === undefined ? {} : { nodeOptions: restoreNodeOptions }),
  };
  const call = `(${guardWorkerThread.toString()})(${JSON.stringify(config)}, ${connectTarget.toString()}, ${isLoopbackWithoutLookup.toString()}, ${compileHostList.toString()})`;
  // @note esbuild's keepNames (tsx, some bundlers) wraps named functions in a `__name(fn, "name")`
  // helper defined elsewhere in the module: give the sent text one that leaves them as they are.
  return `((__name) => ${call})((fn) => fn);`;
}
