import { createHarnessCore, type Harness } from './core/create-harness.js';
import type { HarnessOptions, ScenarioMap } from './core/types.js';
import { HARNESS_PARTS } from './harness-parts.js';

/**
 * Create a harness from scenario definitions. Definitions are validated here (also when
 * `defineScenarios()` checked them already): a mistake throws a `HarnessError`
 * (`INVALID_SCENARIOS`) naming the scenario, the mock and the field.
 *
 * An enabled harness must be started (`await harness.start()`) before the app serves
 * requests. One that was not is never silently inert (decisions/unstarted-harness.md): a
 * control request starts it (and warns), an app request is refused with a `NOT_STARTED`
 * error that says how to fix it, and a harness whose start failed answers control requests
 * 503 with the cause. Started, it logs one line: on, how many scenarios,
 * where the control endpoints are, and `unhandled`; disabled, it logs nothing unless
 * `announce: true`.
 *
 * @example
 * const harness = createHarness({ enabled: process.env.HARNESS_ENABLED === 'true', scenarios });
 * await harness.start();
 * app.use(harnessMiddleware(harness));
 * @see https://github.com/scenario-harness/scenario-harness#readme
 */
export function createHarness<const S extends ScenarioMap>(options: HarnessOptions<S>): Harness<S> {
  return createHarnessCore(options, HARNESS_PARTS);
}
