import type { Logger } from './dev-utils.js';
import { HarnessError } from './errors.js';

/** Where an enabled harness is in its life (decisions/unstarted-harness.md). */
type Phase = { name: 'never' } | { name: 'starting'; done: Promise<unknown> } | { name: 'started' } | { name: 'failed'; error: unknown };

export interface StartGuard {
  /** Record a `start()` in progress; its outcome moves the guard on. */
  starting(done: Promise<unknown>): void;
  /**
   * Before a control request: wait for a start in progress, start a harness nobody started
   * (warning once that `start()` belongs at app start), and say why the request must be
   * refused when starting failed (`undefined`: answer it).
   */
  beforeControlRequest(trigger: string, start: () => Promise<void>): Promise<string | undefined>;
  /** Before an app request: throw `NOT_STARTED` when the harness was never started, or its start failed. `action` is only built then. */
  assertStarted(action: () => string): void;
}

/**
 * Keeps an enabled harness from serving while nothing intercepts: a switch answered "success"
 * and app requests served before `start()` would send every outgoing call to the real
 * network, silently (issue 15). A control request can wait, so it starts the harness; an app
 * request cannot (`run()` is synchronous), so it is refused with the fix. Once started,
 * stopping does not re-arm the guard: `stop()` is deliberate, and requests still in flight
 * at shutdown should not fail.
 */
export function createStartGuard(logger: Logger): StartGuard {
  let phase: Phase = { name: 'never' };
  let loggedRefusal = false;
  let warnedAutoStart = false;

  function refusal(action: string): string | undefined {
    if (phase.name === 'never') {
      return `Failed to ${action}: the harness is enabled but was never started, so the app's outgoing calls would reach the real network. Call await harness.start() once when the app starts, before it serves requests (Next.js: await registerHarness(harness) in instrumentation.ts).`;
    }
    if (phase.name === 'failed') {
      const reason = phase.error instanceof Error ? phase.error.message : String(phase.error);
      return `Failed to ${action}: the harness is enabled but harness.start() failed, so the app's outgoing calls would reach the real network. Fix the cause and call harness.start() again. The start failed with: ${reason}`;
    }
    return undefined;
  }

  return {
    starting(done) {
      const current: Phase = { name: 'starting', done };
      phase = current;
      done.then(
        () => {
          if (phase === current) phase = { name: 'started' };
        },
        (error: unknown) => {
          if (phase === current) phase = { name: 'failed', error };
        },
      );
    },

    async beforeControlRequest(trigger, start) {
      if (phase.name === 'starting') await phase.done.catch(() => {});
      if (phase.name === 'started') return undefined;
      if (phase.name === 'never' && !warnedAutoStart) {
        warnedAutoStart = true;
        logger.warn(
          `Started by the first control request (${trigger}): harness.start() was not called. Call await harness.start() when the app starts; until a harness is started, app requests are refused.`,
        );
      }
      try {
        await start();
        return undefined;
      } catch {
        return refusal(`answer ${trigger}`);
      }
    },

    assertStarted(action) {
      // @note A start in progress counts as started: run() is synchronous and cannot wait, and an
      // app that calls harness.start() without await is ready a few milliseconds later.
      if (phase.name === 'started' || phase.name === 'starting') return;
      const message = refusal(action());
      if (message === undefined) return;
      // The first refusal goes to the log too: an app's error handler may swallow the thrown one.
      if (!loggedRefusal) {
        loggedRefusal = true;
        logger.error(message);
      }
      throw new HarnessError('NOT_STARTED', message);
    },
  };
}
