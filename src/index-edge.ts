/**
 * @module
 * `scenario-harness` under the `edge-light` condition: what `next dev --webpack` compiles when it
 * follows an app's scenarios module (`defineScenarios`) or harness module for the edge runtime.
 * The harness runs on Node.js only, so here nothing imports from Node: `createHarness` gives an
 * inert, disabled harness (as `scenario-harness/next` does on the edge), and `defineScenarios`
 * returns the definitions as they are (they are checked where the harness runs, on Node.js).
 */
import { createNextHarness } from './edge/inert-harness.js';
import { HarnessError } from './core/errors.js';
import type { ScenarioMap } from './core/types.js';

export { BAGGAGE_TEST_ID_KEY, DEFAULT_ENDPOINTS, DEFAULT_LIMITS, DEFAULT_SCENARIO_ID, DEFAULT_TEST_ID, HINT_HEADER, TEST_ID_HEADER } from './core/constants.js';
export { HarnessError, isHarnessError } from './core/errors.js';
export { createMemoryStore } from './core/store/memory-store.js';

/** A disabled harness with the shape of one: the edge runtime never answers calls. */
export const createHarness = createNextHarness;

/** The definitions as they are: checked by the Node.js runtime's `defineScenarios`, where the harness runs. */
export function defineScenarios<const S extends ScenarioMap>(scenarios: S): S {
  return scenarios;
}

/** Scenario files are read from disk, which the edge runtime has not. */
export async function loadScenarios(..._paths: string[]): Promise<ScenarioMap> {
  throw new HarnessError('INVALID_OPTIONS', "Failed to load scenario files on the edge runtime: scenario-harness runs on the Node.js runtime only (load them in a module the Node.js runtime evaluates, e.g. instrumentation.ts when process.env.NEXT_RUNTIME === 'nodejs').");
}
