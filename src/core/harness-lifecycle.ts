import { attachedHarness } from './attached-harness.js';
import { becomeAnswering, leaveAnswering } from './answering-harness.js';
import type { Logger } from './dev-utils.js';
import { HarnessError } from './errors.js';
import { addCallListener, removeCallListener } from './interception.js';
import type { CallListener } from './interception/call-outcome.js';
import { productionRefusal } from './production-refusal.js';
import type { StartGuard } from './start-guard.js';
import type { SessionStore } from './store/session-store.js';
import { unsupportedNodeReason } from './supported-runtime.js';
import type { HarnessOptions, ScenarioMap } from './types.js';

export interface LifecycleOptions {
  options: HarnessOptions<ScenarioMap>;
  logger: Logger;
  store: SessionStore;
  /** True when `store` is the sessions of the harness this one took over from (a dev server's reload). */
  adoptedStore: boolean;
  listener: CallListener;
  guard: StartGuard;
  /** The parts' own start and stop. */
  parts: { start(): Promise<void>; stop(): Promise<void> };
  /** Called once a start succeeded: the start-up line. */
  onStarted(): void;
}

/**
 * `harness.start()` and `stop()` of an enabled harness: refuse what cannot run (an old Node, a
 * second harness beside register's, production without access), start the parts (the contract
 * documents are read before the first call is answered), then answer this process's calls.
 */
export function createLifecycle(harness: object, { options, logger, store, adoptedStore, listener, guard, parts, onStarted }: LifecycleOptions) {
  // `intercept: false` (the standalone server): sessions and control endpoints, no patched globals.
  const intercepts = options.intercept !== false;
  const sideBySide = options.sideBySide === true || !intercepts;
  let started: Promise<void> | undefined;

  /** Become the harness that answers this process's calls; one before it (same module, evaluated again) stops answering them. */
  async function answerInsteadOfPrevious(): Promise<void> {
    const { superseded, firstTime } = await becomeAnswering({ harness, store, supersede: () => removeCallListener(listener), resume: () => addCallListener(listener) });
    if (!superseded || !firstTime) return;
    const sessions = adoptedStore
      ? 'tests switched before keep their scenario, state, sequence positions and journal'
      : 'it has a store of its own (the store option), so tests switched before start again from default unless both stores are the same Redis';
    logger.warn(
      `A harness was already answering in this process: the module that creates it was evaluated again (a dev server reloading it after an edit) or the package is loaded twice. The newest one answers from now on, with its definitions; ${sessions}. To run harnesses side by side on purpose, create each with sideBySide: true. (Logged once.)`,
    );
  }

  async function begin(): Promise<void> {
    // Under NODE_ENV=production without access it fails before anything, and the start guard keeps the reason.
    const refusal = productionRefusal(options);
    if (refusal !== undefined) throw new HarnessError('INVALID_OPTIONS', refusal);
    await parts.start();
    if (!intercepts) return;
    await addCallListener(listener);
    if (!sideBySide) await answerInsteadOfPrevious();
  }

  return {
    async start(): Promise<void> {
      const unsupported = unsupportedNodeReason();
      if (unsupported !== undefined) throw new HarnessError('UNSUPPORTED_RUNTIME', unsupported);
      const attached = attachedHarness();
      if (attached !== undefined && attached !== harness && intercepts) {
        throw new HarnessError(
          'INVALID_OPTIONS',
          'Failed to start this harness: scenario-harness/register already attached one to this process (node --import scenario-harness/register with HARNESS_ENABLED=true), and two harnesses would answer the same calls. Keep one: remove the --import and keep the app\'s own harness, or remove the app\'s harness.start() and let register answer from HARNESS_SCENARIOS.',
        );
      }
      if (started === undefined) {
        const starting = begin();
        started = starting;
        guard.starting(starting);
        starting.then(onStarted, () => {
          if (started === starting) started = undefined;
        });
      }
      await started;
    },
    async stop(): Promise<void> {
      if (started === undefined) return;
      await started.catch(() => {});
      started = undefined;
      // The harness this one superseded (if still started) answers again, before this one lets go.
      await leaveAnswering(harness);
      if (intercepts) await removeCallListener(listener);
      await parts.stop();
    },
  };
}
