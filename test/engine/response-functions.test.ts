/**
 * A function as a response, in code-defined scenarios: for what templates cannot express, with
 * the same test ID, state and sequence rules, and a clear failure when it throws or returns junk.
 */
import { randomUUID } from 'node:crypto';
import { defineScenarios } from 'scenario-harness';
import { expect, test } from 'vitest';
import { startHarness } from './with-harness.js';

const API = 'https://api.fn.test';
const scenarios = defineScenarios({
  default: {
    name: 'Functions',
    mocks: [
      {
        method: 'POST',
        url: `${API}/quotes/:region`,
        response: async (request, { testId, params, state, scenarioId }) => {
          const { items } = (await request.json()) as { items: { price: number; qty: number }[] };
          const total = items.reduce((sum, item) => sum + item.price * item.qty, 0);
          return { status: 201, headers: { 'x-test': testId }, body: { region: params.region, total, discount: state.vip === true ? 0.1 : 0, scenarioId } };
        },
        afterResponse: { setState: { 'quotes[]': '{{params.region}}' } },
      },
      { method: 'POST', url: `${API}/vip`, response: { status: 204 }, afterResponse: { setState: { vip: true } } },
      { url: `${API}/steps`, sequence: { responses: [{ body: 'first' }, () => ({ body: `computed at ${'step 2'}` })] } },
      { url: `${API}/throws`, response: () => { throw new Error('no quote for you'); } },
      { url: `${API}/junk`, response: () => ({ status: 'teapot' }) as never },
    ],
  },
});

const quote = (region: string) => fetch(`${API}/quotes/${region}`, { method: 'POST', body: JSON.stringify({ items: [{ price: 10, qty: 2 }, { price: 5, qty: 1 }] }) });

test('a response function gets the Request and the test\'s context, and its answer goes through like a written one (setState too)', async () => {
  const { harness, asTest } = await startHarness(scenarios);
  const testId = randomUUID();
  await asTest(undefined, async () => {
    const first = await quote('eu');
    expect([first.status, first.headers.get('x-test'), await first.json()]).toEqual([201, testId, { region: 'eu', total: 25, discount: 0, scenarioId: 'default' }]);
    await fetch(`${API}/vip`, { method: 'POST' });
    expect(await (await quote('us')).json()).toMatchObject({ region: 'us', discount: 0.1 });
  }, testId);
  expect(await harness.getState(testId)).toEqual({ quotes: ['eu', 'us'], vip: true });
  // Another test has its own state.
  await asTest(undefined, async () => expect(await (await quote('eu')).json()).toMatchObject({ discount: 0 }));
});

test('a function in a sequence answers at its step', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    expect(await (await fetch(`${API}/steps`)).text()).toBe('first');
    expect(await (await fetch(`${API}/steps`)).text()).toBe('computed at step 2');
    expect(await (await fetch(`${API}/steps`)).text()).toBe('computed at step 2');
  });
});

test('a function that throws or returns something that is not a response fails the call, naming the mock', async () => {
  const { asTest, logs } = await startHarness(scenarios);
  await asTest(undefined, async (testId) => {
    const thrown = await fetch(`${API}/throws`).then(() => undefined, (e: unknown) => (e as Error).cause as Error);
    expect(thrown?.message).toMatch(new RegExp(`^\\[scenario-harness\\] The response function of mock default#3 for GET ${API}/throws \\(test "${testId}"\\) threw: no quote for you\\. The call fails\\.$`));
    const junk = await fetch(`${API}/junk`).then(() => undefined, (e: unknown) => (e as Error).cause as Error);
    expect(junk?.message).toMatch(/mock default#4 .* returned an invalid response \(status: .*\)/);
  });
  expect(logs.filter((line) => line.startsWith('error:'))).toHaveLength(2);
});
