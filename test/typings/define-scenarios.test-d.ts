/**
 * Compile-time checks of defineScenarios, run by `npm run typecheck` (tsc over test/).
 * Never executed: each `// @ts-expect-error` line must fail to compile, every other line must compile.
 * At run time the same keys are refused with the nearest one named (test/validation).
 */
import { defineScenarios } from 'scenario-harness';

export const misspelt = {
  mockKey: defineScenarios({
    default: {
      name: 'Default',
      // @ts-expect-error -- respones is not a key of a mock: unknown key "respones" on a mock; allowed keys: …
      mocks: [{ url: '/x', respones: { status: 200 } }],
    },
  }),
  variantMockKey: defineScenarios({
    default: { name: 'Default', mocks: [] },
    // @ts-expect-error -- qeury sits on the mock, where match belongs
    premium: { name: 'Premium', mocks: [], variants: { gold: { mocks: [{ url: '/x', response: {}, qeury: { a: '1' } }] } } },
  }),
  // @ts-expect-error -- mock is not a key of a scenario (mocks is)
  scenarioKey: defineScenarios({ default: { name: 'Default', mock: [] } }),
  matchKey: defineScenarios({
    // @ts-expect-error -- qeury is not a key of match (TypeScript's own "did you mean 'query'?")
    default: { name: 'Default', mocks: [{ url: '/x', match: { qeury: { a: '1' } }, response: {} }] },
  }),
};

// Every key the definitions know compiles, response functions keep their parameter types, and the IDs stay literal.
const scenarios = defineScenarios({
  default: {
    name: 'Default',
    description: 'Every API answers',
    mocks: [
      { id: 'user', method: ['GET'], url: /\/user$/, match: { query: { a: { contains: 'x' } } }, response: (request, { testId }) => ({ status: request.method === 'GET' ? 200 : 201, body: { testId } }) },
      { url: '/y', sequence: { responses: [{ status: 200 }], repeat: 'cycle' }, afterResponse: { setState: { seen: true } } },
    ],
    variants: { gold: { mocks: [{ url: '/z', response: { body: { tier: 'gold' }, delay: 5 } }] } },
  },
  declined: { name: 'Declined', mocks: [{ url: { regex: { source: '^/pay', flags: 'i' } }, response: { error: 'network' } }] },
});
export const ids: ('default' | 'declined')[] = Object.keys(scenarios) as (keyof typeof scenarios)[];
