import type { ControlAnswer, ControlCall } from './control/control-call.js';
import { HarnessError } from './errors.js';
import type { CallListener } from './interception/call-outcome.js';

/**
 * The key of a harness's internals: a non-enumerable property, for this package's own parts
 * (the Node adapters, the standalone server) and never part of the public API. `Symbol.for`,
 * so a harness made by another copy of this module is still understood.
 */
export const HARNESS_INTERNALS = Symbol.for('scenario-harness.internal');

/** What the package's own parts may reach inside a harness. */
export interface HarnessInternals {
  /** The control endpoints on a plain-data call (no Fetch Request or Response). */
  handleControl(call: ControlCall): Promise<ControlAnswer | null>;
  /** Answers a call from the harness's scenarios without intercepting anything (`answer`, then `unanswered`). */
  listener: CallListener;
}

/** The internals of a harness made by `createHarness`; throws when `harness` is something else. */
export function getHarnessInternals(harness: object): HarnessInternals {
  const internals = (harness as Record<symbol, HarnessInternals | undefined>)[HARNESS_INTERNALS];
  if (internals === undefined) {
    throw new HarnessError('INVALID_ARGUMENT', 'Expected a harness made by createHarness() of this version of scenario-harness, instead got an object without its internals.');
  }
  return internals;
}
