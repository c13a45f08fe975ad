/**
 * Compile-time checks of scenario-harness/client, run by `npm run typecheck` (tsc over test/).
 * Never executed: each `// @ts-expect-error` line must fail to compile, every other line must compile.
 */
import { defineScenarios, type Harness, type TestState } from 'scenario-harness';
import {
  createHarnessClient,
  describeCall,
  type ActiveScenarioInfo,
  type BrowserCallAnswer,
  type CallFilter,
  type ExpectCalledOptions,
  type HarnessClient,
  type JournalEntry,
  type ScenarioInfo,
  type WaitForCallOptions,
} from 'scenario-harness/client';
import { expectTypeOf } from 'vitest';

const _scenarios = defineScenarios({
  default: { name: 'Happy path', mocks: [] },
  premium: { name: 'Premium', mocks: [], variants: { gold: { mocks: [] }, silver: { mocks: [] } } },
  githubDown: { name: 'GitHub down', description: 'Every GitHub call fails', mocks: [] },
});
type Scenarios = typeof _scenarios;

export async function typedClient(): Promise<void> {
  const client = createHarnessClient<Scenarios>({ baseURL: 'http://127.0.0.1:3000' });
  expectTypeOf(client).toEqualTypeOf<HarnessClient<Scenarios>>();
  expectTypeOf(client.switchScenario).parameter(0).toEqualTypeOf<'default' | 'premium' | 'githubDown'>();
  await client.switchScenario('githubDown');
  await client.switchScenario('premium', { variant: 'gold' });
  await client.switchScenario('premium', { variant: 'silver' });
  // @ts-expect-error -- 'GithubDown' is not a registered scenario ID (IDs are case-sensitive)
  await client.switchScenario('GithubDown');
  // @ts-expect-error -- premium declares gold and silver only
  await client.switchScenario('premium', { variant: 'platinum' });
  // A scenario that declares no variants takes any variant name (SPEC: accepted and echoed).
  await client.switchScenario('default', { variant: 'anything' });
  // @ts-expect-error -- the variant is a string
  await client.switchScenario('default', { variant: 1 });

  expectTypeOf(client.testId).toEqualTypeOf<string>();
  expectTypeOf(client.headers).toEqualTypeOf<Record<string, string>>();
  expectTypeOf(await client.getState()).toEqualTypeOf<TestState>();
  expectTypeOf(await client.waitForState((state) => state['cart.count'] === 2, { timeout: 1000, interval: 50 })).toEqualTypeOf<TestState>();
  // @ts-expect-error -- waitForState takes a predicate
  await client.waitForState({ 'cart.count': 2 });
  expectTypeOf(await client.getActiveScenario()).toEqualTypeOf<ActiveScenarioInfo<Scenarios> | undefined>();
  expectTypeOf((await client.getActiveScenario())?.scenarioId).toEqualTypeOf<'default' | 'premium' | 'githubDown' | undefined>();
  expectTypeOf(await client.listScenarios()).toEqualTypeOf<ScenarioInfo<Scenarios>[]>();
  expectTypeOf((await client.listScenarios())[0]?.variants).toEqualTypeOf<string[] | undefined>();
  expectTypeOf(await client.endTest()).toEqualTypeOf<void>();
}

export async function untypedClient(): Promise<void> {
  const client = createHarnessClient({ baseURL: 'http://127.0.0.1:3000', testId: 't-1', endpoints: { getState: '/debug/state', scenarios: '/debug/scenarios' } });
  await client.switchScenario('anything-at-all', { variant: 'any' });
  expectTypeOf(client.switchScenario).parameter(0).toEqualTypeOf<string>();
}

export function options(): void {
  createHarnessClient({ baseURL: 'http://127.0.0.1:3000', fetch: (url, init) => fetch(url, init) });
  createHarnessClient({ baseURL: 'http://127.0.0.1:3000', fetch });
  // @ts-expect-error -- baseURL is required
  createHarnessClient({ testId: 't-1' });
  // @ts-expect-error -- it is baseURL, not baseUrl
  createHarnessClient({ baseUrl: 'http://127.0.0.1:3000' });
  // @ts-expect-error -- endpoint paths are strings
  createHarnessClient({ baseURL: 'http://127.0.0.1:3000', endpoints: { getState: 42 } });
  createHarnessClient({ baseURL: 'http://127.0.0.1:3000', token: process.env.HARNESS_TOKEN });
  // @ts-expect-error -- the token is a string
  createHarnessClient({ baseURL: 'http://127.0.0.1:3000', token: 42 });
}

// The harness's own switchScenario takes the same typed variants.
export async function harnessVariants(harness: Harness<Scenarios>): Promise<void> {
  await harness.switchScenario('t-1', 'premium', 'gold');
  // @ts-expect-error -- premium declares gold and silver only
  await harness.switchScenario('t-1', 'premium', 'platinum');
  await harness.switchScenario('t-1', 'githubDown', 'any-name');
}

export async function verification(): Promise<void> {
  const client = createHarnessClient<Scenarios>({ baseURL: 'http://127.0.0.1:3000' });
  expectTypeOf(await client.calls()).toEqualTypeOf<JournalEntry[]>();
  expectTypeOf(await client.calls({ method: 'POST', url: '*/v1/charges', unanswered: true, mockId: 'charge', body: { amount: 5000 } })).toEqualTypeOf<JournalEntry[]>();
  expectTypeOf(await client.waitForCall({ url: '*/v1/charges' }, { timeout: 2000, interval: 50 })).toEqualTypeOf<JournalEntry>();
  expectTypeOf(await client.expectCalled({ method: 'POST', body: { amount: { regex: { source: '^5' } } } }, { times: 1 })).toEqualTypeOf<JournalEntry[]>();
  expectTypeOf(await client.clearCalls()).toEqualTypeOf<void>();
  const [call] = await client.calls();
  if (call !== undefined) {
    expectTypeOf(call.layer).toEqualTypeOf<'test' | 'variant' | 'scenario' | 'default' | undefined>();
    expectTypeOf(call.nearMisses).toEqualTypeOf<string[] | undefined>();
    expectTypeOf(describeCall(call)).toEqualTypeOf<string>();
  }
  const filter: CallFilter = { url: '*/users/*' };
  const options: ExpectCalledOptions & WaitForCallOptions = { times: 2, timeout: 0 };
  await client.expectCalled(filter, options);
  // @ts-expect-error -- "methd" is not a filter
  await client.calls({ methd: 'POST' });
  // @ts-expect-error -- unanswered is a boolean
  await client.calls({ unanswered: 'yes' });
  // @ts-expect-error -- waitForCall needs a filter
  await client.waitForCall();
  // @ts-expect-error -- times is a number
  await client.expectCalled({ url: '*' }, { times: '1' });
}

export async function ownMocksAndState(harness: Harness): Promise<void> {
  const client = createHarnessClient({ baseURL: 'http://127.0.0.1:3000' });
  expectTypeOf(await client.use({ url: '*/orders', response: { status: 409 } })).toEqualTypeOf<number>();
  // @ts-expect-error -- "respnse" is a typo of "response"
  await client.use({ url: '*/orders', respnse: { status: 409 } });
  expectTypeOf(await client.setState({ 'user.id': 'u-1' })).toEqualTypeOf<TestState>();
  // In process, a response may be a function.
  expectTypeOf(await harness.useMocks('t-1', [{ url: '*/orders', response: async (_request, { state }) => ({ body: state }) }])).toEqualTypeOf<number>();
  expectTypeOf(await harness.resetMocks('t-1')).toEqualTypeOf<void>();
  expectTypeOf(await harness.setState('t-1', { 'user.id': 'u-1' })).toEqualTypeOf<void>();
}

export async function browserCalls(): Promise<void> {
  const client = createHarnessClient({ baseURL: 'http://127.0.0.1:3000' });
  const answer = await client.answer({ method: 'GET', url: 'https://maps.example.test/v1/geocode', headers: { origin: 'http://127.0.0.1:3000' } });
  expectTypeOf(answer).toEqualTypeOf<BrowserCallAnswer>();
  if (answer.answered) {
    expectTypeOf(answer.bodyBase64).toEqualTypeOf<string>();
    expectTypeOf(answer.fault).toEqualTypeOf<'network' | 'reset' | 'timeout' | 'malformed' | undefined>();
  } else {
    expectTypeOf(answer.action).toEqualTypeOf<'abort' | 'continue'>();
  }
  // @ts-expect-error -- headers are required (an empty object when there are none)
  await client.answer({ method: 'GET', url: 'https://maps.example.test/' });
}
