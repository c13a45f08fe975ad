import type { ControlAnswer, ControlCall } from './control/control-call.js';

/**
 * What the package's own adapters and server use of a harness beyond its public API, kept on
 * the harness under a `Symbol.for` key so that every copy of the package finds it.
 */
export const HARNESS_INTERNALS = Symbol.for('scenario-harness.internal');

export interface HarnessInternals {
  /** The control endpoints on a plain-data call (no Fetch Request or Response). */
  handleControl(call: ControlCall): Promise<ControlAnswer | null>;
}

/** The internals of a harness made by `createHarness` (any copy of the package). */
export function internalsOf(harness: object): HarnessInternals {
  const internals = (harness as Record<symbol, HarnessInternals | undefined>)[HARNESS_INTERNALS];
  if (internals === undefined) throw new TypeError('Expected a harness made by createHarness() from scenario-harness.');
  return internals;
}
