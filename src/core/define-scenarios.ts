import { compileScenarios } from './engine/compile-scenarios.js';
import type { ScenarioMap } from './types.js';

/**
 * Declare scenarios with their IDs kept as literal types (so `switchScenario('typo')` is a
 * compile error) and check them at once.
 *
 * Where definition errors are thrown: here, when the scenarios module is first imported, as a
 * `HarnessError` with code `INVALID_SCENARIOS` that lists every problem with its scenario ID,
 * mock index and field (`scenario "premium", mocks[0]: unknown key "respnse" (did you mean
 * "response"?)`) and says it came from `defineScenarios()`. `createHarness()` runs the same
 * check on whatever map it gets (one made without `defineScenarios` too) and throws the same
 * error naming `createHarness()`. The one difference: a harness created with
 * `enabled: false` skips the check of regular expressions for catastrophic backtracking,
 * since it never matches a call.
 *
 * @example
 * export const scenarios = defineScenarios({
 *   default: { name: 'Happy path', mocks: [{ url: 'https://api.example.com/user', response: { body: { name: 'Ada' } } }] },
 *   userMissing: { name: 'User missing', mocks: [{ url: 'https://api.example.com/user', response: { status: 404 } }] },
 * });
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/troubleshooting-errors.md
 */
export function defineScenarios<const S extends ScenarioMap>(scenarios: S): S {
  compileScenarios(scenarios, { checkedBy: 'defineScenarios()' });
  return scenarios;
}
