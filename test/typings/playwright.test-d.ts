/**
 * Compile-time checks of scenario-harness/playwright, run by `npm run typecheck` (tsc over test/).
 * Never executed: each `// @ts-expect-error` line must fail to compile, every other line must compile.
 */
import { defineConfig, test as base } from '@playwright/test';
import { defineScenarios, type TestState } from 'scenario-harness';
import {
  defineHarnessFixture,
  harnessTest,
  test as untypedTest,
  type HarnessClient,
  type HarnessFixtures,
  type HarnessTestOptions,
  type CallFilter,
  type ExpectCalledOptions,
  type JournalEntry,
  type WaitForCallOptions,
} from 'scenario-harness/playwright';
import { expectTypeOf } from 'vitest';

const _scenarios = defineScenarios({
  default: { name: 'Happy path', mocks: [] },
  premium: { name: 'Premium', mocks: [], variants: { gold: { mocks: [] } } },
  paymentDeclined: { name: 'Declined', mocks: [] },
});
type Scenarios = typeof _scenarios;

const test = harnessTest<Scenarios>();

test('scenario IDs are the registered ones', async ({ harness }) => {
  expectTypeOf(harness).toEqualTypeOf<HarnessClient<Scenarios>>();
  expectTypeOf(harness.switchScenario).parameter(0).toEqualTypeOf<'default' | 'premium' | 'paymentDeclined'>();
  await harness.switchScenario('premium');
  await harness.switchScenario('premium', { variant: 'gold' });
  await harness.switchScenario('paymentDeclined', {});
  // @ts-expect-error -- 'premum' is not a registered scenario ID
  await harness.switchScenario('premum');
  // @ts-expect-error -- a scenario ID is required
  await harness.switchScenario();
  // @ts-expect-error -- the variant is a string
  await harness.switchScenario('premium', { variant: 1 });
  // @ts-expect-error -- premium declares the variant gold only
  await harness.switchScenario('premium', { variant: 'platinum' });
  // A scenario that declares no variants takes any variant name.
  await harness.switchScenario('paymentDeclined', { variant: 'any-name' });
  expectTypeOf(harness.headers).toEqualTypeOf<Record<string, string>>();
  expectTypeOf((await harness.listScenarios())[0]?.id).toEqualTypeOf<'default' | 'premium' | 'paymentDeclined' | undefined>();
});

test('state, test ID and active scenario are typed', async ({ harness, harnessTestId }) => {
  expectTypeOf(harness.testId).toEqualTypeOf<string>();
  expectTypeOf(harnessTestId).toEqualTypeOf<string>();
  expectTypeOf(await harness.getState()).toEqualTypeOf<TestState>();
  expectTypeOf(await harness.waitForState((state) => state['cart.count'] === 2, { timeout: 1000 })).toEqualTypeOf<TestState>();
  const active = await harness.getActiveScenario();
  expectTypeOf(active?.scenarioId).toEqualTypeOf<'default' | 'premium' | 'paymentDeclined' | undefined>();
  // @ts-expect-error -- waitForState takes a predicate
  await harness.waitForState({ 'cart.count': 2 });
});

untypedTest('the ready-made test takes any scenario ID', async ({ harness, page, request }) => {
  await harness.switchScenario('anything-at-all');
  expectTypeOf(harness.switchScenario).parameter(0).toEqualTypeOf<string>();
  expectTypeOf(page).not.toBeAny();
  expectTypeOf(request).not.toBeAny();
});

// Your own base test: name its type next to the scenarios (TypeScript cannot infer one of two).
const withLocale = base.extend<{ shopLocale: string }>({ shopLocale: 'de' });
const localeTest = harnessTest<Scenarios, typeof withLocale>(withLocale);
localeTest('the base test keeps its fixtures', async ({ shopLocale, harness }) => {
  expectTypeOf(shopLocale).toEqualTypeOf<string>();
  // @ts-expect-error -- still checked against the scenarios
  await harness.switchScenario('premum');
});

// The factory, dropped into the user's own test.extend().
const factoryTest = withLocale.extend<HarnessFixtures<Scenarios>>(defineHarnessFixture<Scenarios>());
factoryTest('the factory gives the same fixtures', async ({ shopLocale, harness }) => {
  expectTypeOf(shopLocale).toEqualTypeOf<string>();
  await harness.switchScenario('default');
  // @ts-expect-error -- unknown scenario ID
  await harness.switchScenario('nope');
});

// Options in playwright.config.ts.
defineConfig<HarnessTestOptions>({ use: { baseURL: 'http://127.0.0.1:3000', harnessEndpoints: { getState: '/debug/state', scenarios: '/debug/scenarios' } } });
// @ts-expect-error -- endpoint paths are strings
defineConfig<HarnessTestOptions>({ use: { harnessEndpoints: { getState: 42 } } });
test.use({ harnessEndpoints: { setScenario: '/x/scenario' } });
defineConfig<HarnessTestOptions>({ use: { harnessJournal: 'on' } });
// @ts-expect-error -- 'only-on-failure', 'on' or 'off'
defineConfig<HarnessTestOptions>({ use: { harnessJournal: 'always' } });
test.use({ harnessJournal: 'off' });

test('the app\'s calls are typed journal entries', async ({ harness }) => {
  expectTypeOf(await harness.calls({ method: 'POST' })).toEqualTypeOf<JournalEntry[]>();
  expectTypeOf(await harness.waitForCall({ url: '*/v1/charges' }, { timeout: 2000 })).toEqualTypeOf<JournalEntry>();
  const calls = await harness.expectCalled({ method: 'POST', url: '*/v1/charges', body: { amount: 5000 } }, { times: 1 });
  expectTypeOf(calls).toEqualTypeOf<JournalEntry[]>();
  const filter: CallFilter = { unanswered: true };
  await harness.expectCalled(filter, { times: 0 } satisfies ExpectCalledOptions);
  await harness.waitForCall(filter, { interval: 50 } satisfies WaitForCallOptions);
  // @ts-expect-error -- "times" belongs in the options, not the filter
  await harness.expectCalled({ url: '*', times: 1 });
});
defineConfig<HarnessTestOptions>({ use: { harnessToken: process.env.HARNESS_TOKEN } });
// @ts-expect-error -- the token is a string
defineConfig<HarnessTestOptions>({ use: { harnessToken: 42 } });

test("a test's own mocks take the scenarios' Mock type; state is a plain object", async ({ harness }) => {
  expectTypeOf(await harness.use({ method: 'POST', url: 'https://api.example.test/orders', sequence: { responses: [{ status: 201 }, { status: 409 }] } })).toEqualTypeOf<number>();
  await harness.use({ url: /\/orders$/, response: { status: 202 } }, { url: '*/me', match: { state: { 'user.plan': 'pro' } }, response: { body: { plan: 'pro' } } });
  // @ts-expect-error -- "respnse" is a typo of "response"
  await harness.use({ url: '*/orders', respnse: { status: 409 } });
  // @ts-expect-error -- a status is a number
  await harness.use({ url: '*/orders', response: { status: '409' } });
  // @ts-expect-error -- "FETCH" is not an HTTP method
  await harness.use({ method: 'FETCH', url: '*/orders', response: {} });
  expectTypeOf(await harness.resetMocks()).toEqualTypeOf<void>();
  expectTypeOf(await harness.setState({ 'user.id': 'u-1', 'visits[]': 1 })).toEqualTypeOf<TestState>();
  // @ts-expect-error -- the state is an object of keys
  await harness.setState('user.id');
});
defineConfig<HarnessTestOptions>({ use: { harnessBrowser: true } });
test.use({ harnessBrowser: { origins: ['https://maps.example.test'] } });
// @ts-expect-error -- true, false or { origins }
defineConfig<HarnessTestOptions>({ use: { harnessBrowser: 'all' } });
// @ts-expect-error -- origins is a list of origins
test.use({ harnessBrowser: { origins: 'https://maps.example.test' } });
