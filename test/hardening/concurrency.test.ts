import { randomUUID } from 'node:crypto';
import { createHarness, type Harness, type HarnessOptions, type ScenarioMap } from 'scenario-harness';
import { afterEach, expect, test } from 'vitest';
import { heldBody, observedStore } from './held-call.js';

const API = 'https://api.x.test';
const STEPS = 100;

const scenarios = {
  default: {
    name: 'D',
    mocks: [
      { url: `${API}/step`, sequence: { responses: Array.from({ length: STEPS }, (_, step) => ({ body: { step } })), repeat: 'none' as const } },
      { method: 'POST' as const, url: `${API}/append`, response: { status: 204 }, afterResponse: { setState: { 'seen[]': '{{body.n}}' } } },
    ],
  },
  alpha: {
    name: 'Alpha',
    mocks: [
      { url: `${API}/setup`, response: { body: 'ok' }, afterResponse: { setState: { plan: 'alpha plan' } } },
      { method: 'POST' as const, url: `${API}/op`, match: { body: { op: 'go' } }, response: { body: { scenario: 'alpha', plan: '{{state.plan}}' } } },
      { method: 'POST' as const, url: `${API}/record`, response: { body: 'recorded' }, afterResponse: { setState: { recorded: '{{body.what}}' } } },
    ],
  },
  beta: {
    name: 'Beta',
    mocks: [{ method: 'POST' as const, url: `${API}/op`, match: { body: { op: 'go' } }, response: { body: { scenario: 'beta', plan: '{{state.plan}}' } } }],
  },
} satisfies ScenarioMap;

const started: Harness[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((harness) => harness.stop()));
});
async function start(options: Partial<HarnessOptions<typeof scenarios>> = {}) {
  const harness = createHarness({ enabled: true, scenarios, unhandled: 'error', logger: { warn: () => {}, error: () => {} }, ...options });
  await harness.start();
  started.push(harness as unknown as Harness);
  return harness;
}

test('a call in flight while its test switches scenario answers wholly from the scenario it started with', async () => {
  const store = observedStore();
  const harness = await start({ store });
  const testId = randomUUID();
  await harness.switchScenario(testId, 'alpha');
  await harness.run(testId, () => fetch(`${API}/setup`));

  const body = heldBody('{"op":');
  const readSession = store.readBy(testId);
  const inFlight = harness.run(testId, () => fetch(`${API}/op`, body.init));
  await readSession; // the call has taken its snapshot and now waits for the rest of its body
  await harness.switchScenario(testId, 'beta');
  body.finish('"go"}');

  expect(await (await inFlight).json()).toEqual({ scenario: 'alpha', plan: 'alpha plan' });
  const after = await harness.run(testId, () => fetch(`${API}/op`, { method: 'POST', body: '{"op":"go"}' }));
  expect(await after.json()).toEqual({ scenario: 'beta' });
});

test('a setState from a call in flight when its test switches does not land in the new scenario\'s state', async () => {
  const store = observedStore();
  const harness = await start({ store });
  const testId = randomUUID();
  await harness.switchScenario(testId, 'alpha');
  const body = heldBody('{"what":');
  const readSession = store.readBy(testId);
  const inFlight = harness.run(testId, () => fetch(`${API}/record`, body.init));
  await readSession;
  await harness.switchScenario(testId, 'beta');
  body.finish('"old"}');
  expect(await (await inFlight).text()).toBe('recorded');
  expect(await harness.getState(testId)).toEqual({});
  // The same call made after the switch (back to alpha) writes as usual.
  await harness.switchScenario(testId, 'alpha');
  await harness.run(testId, () => fetch(`${API}/record`, { method: 'POST', body: '{"what":"new"}' }));
  expect(await harness.getState(testId)).toEqual({ recorded: 'new' });
});

test(`${STEPS} concurrent calls on a ${STEPS}-step sequence each get a different step, each step exactly once`, async () => {
  const harness = await start();
  const testId = randomUUID();
  const steps = await Promise.all(
    Array.from({ length: STEPS }, () => harness.run(testId, async () => ((await (await fetch(`${API}/step`)).json()) as { step: number }).step)),
  );
  expect(steps.sort((a, b) => a - b)).toEqual(Array.from({ length: STEPS }, (_, i) => i));
  // The sequence is used up ('none'), so one more call finds no mock.
  await expect(harness.run(testId, () => fetch(`${API}/step`))).rejects.toThrow();
});

test('concurrent setState appends lose nothing', async () => {
  const harness = await start();
  const testId = randomUUID();
  await Promise.all(Array.from({ length: 200 }, (_, n) => harness.run(testId, () => fetch(`${API}/append`, { method: 'POST', body: JSON.stringify({ n }) }))));
  const { seen } = (await harness.getState(testId)) as { seen: number[] };
  expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i));
});

test('concurrent tests never share a sequence or a state', async () => {
  const harness = await start();
  const tests = Array.from({ length: 10 }, () => randomUUID());
  await Promise.all(
    tests.flatMap((testId) => Array.from({ length: 10 }, (_, n) => harness.run(testId, () => fetch(`${API}/append`, { method: 'POST', body: JSON.stringify({ n }) })))),
  );
  const steps = await Promise.all(tests.map((testId) => harness.run(testId, async () => ((await (await fetch(`${API}/step`)).json()) as { step: number }).step)));
  expect(steps).toEqual(tests.map(() => 0));
  for (const testId of tests) expect(((await harness.getState(testId)).seen as number[]).length).toBe(10);
});
