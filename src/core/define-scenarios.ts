import { compileScenarios } from './engine/compile-scenarios.js';
import type { ScenarioMap } from './types.js';

/**
 * Declare scenarios with their IDs kept as literal types (so `switchScenario('typo')` is a
 * compile error) and check them at once: a mistake throws a `HarnessError` naming the
 * scenario, the mock and the field.
 *
 * @example
 * export const scenarios = defineScenarios({
 *   default: { name: 'Happy path', mocks: [{ url: 'https://api.example.com/user', response: { body: { name: 'Ada' } } }] },
 *   userMissing: { name: 'User missing', mocks: [{ url: 'https://api.example.com/user', response: { status: 404 } }] },
 * });
 */
export function defineScenarios<const S extends ScenarioMap>(scenarios: S): S {
  compileScenarios(scenarios);
  return scenarios;
}
