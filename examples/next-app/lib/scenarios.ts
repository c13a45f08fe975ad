import { defineScenarios } from 'scenario-harness';

/** Everything the app calls lives at `<UPSTREAM_ORIGIN>/upstream/...`. */
const GREETING = '*/upstream/greeting';

export const scenarios = defineScenarios({
  default: { name: 'Default greeting', mocks: [{ method: 'GET', url: GREETING, response: { body: { greeting: 'hello from the default scenario' } } }] },
  friendly: { name: 'Friendly', mocks: [{ method: 'GET', url: GREETING, response: { body: { greeting: 'hi, friend' } } }] },
  grumpy: { name: 'Grumpy', mocks: [{ method: 'GET', url: GREETING, response: { body: { greeting: 'go away' } } }] },
});
