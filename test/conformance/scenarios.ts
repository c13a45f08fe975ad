import { createHarness, defineScenarios, type Harness, type HarnessOptions } from 'scenario-harness';

/** The upstream endpoint every fixture app calls; the path keeps it apart from the apps' own routes. */
const GREETING = '*/upstream/greeting';

export const conformanceScenarios = defineScenarios({
  default: { name: 'Default greeting', mocks: [{ method: 'GET', url: GREETING, response: { body: { greeting: 'hello from the default scenario' } } }] },
  friendly: { name: 'Friendly', mocks: [{ method: 'GET', url: GREETING, response: { body: { greeting: 'hi, friend' } } }] },
  grumpy: { name: 'Grumpy', mocks: [{ method: 'GET', url: GREETING, response: { body: { greeting: 'go away' } } }] },
});

export type ConformanceScenarioId = keyof typeof conformanceScenarios;

/** The harness every fixture app uses. */
export function createConformanceHarness(options: Pick<HarnessOptions, 'enabled'> & Partial<HarnessOptions>): Harness<typeof conformanceScenarios> {
  return createHarness({ unhandled: 'error', ...options, scenarios: conformanceScenarios });
}
