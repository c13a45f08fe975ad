import { randomUUID } from 'node:crypto';
import { createHarness } from 'scenario-harness';
import { afterEach, expect, test } from 'vitest';
import { heldBody, observedStore } from './held-call.js';

const API = 'https://api.x.test';
const scenarios = {
  default: { name: 'D', mocks: [] },
  checkout: {
    name: 'Checkout',
    mocks: [{ method: 'POST' as const, url: `${API}/pay`, match: { body: { amount: 10 } }, response: { body: 'paid' }, afterResponse: { setState: { paid: '{{body.amount}}' } } }],
  },
};

let now = 0;
const store = observedStore({ maxSessions: 3, idleTimeoutMs: 1000, now: () => now });
const harness = createHarness({ enabled: true, scenarios, store, unhandled: 'error', logger: { warn: () => {}, error: () => {} } });
afterEach(() => harness.stop());

test('a session in use by a call in flight is not evicted, by count or by idle time', async () => {
  await harness.start();
  const testId = randomUUID();
  await harness.switchScenario(testId, 'checkout');

  const body = heldBody('{"amount":');
  const readSession = store.readBy(testId);
  const inFlight = harness.run(testId, () => fetch(`${API}/pay`, body.init));
  await readSession;

  // While the call waits for its body: the store fills far past maxSessions and time passes.
  for (let i = 0; i < 20; i++) await harness.switchScenario(randomUUID(), 'checkout');
  now += 5000;
  await harness.switchScenario(randomUUID(), 'checkout');
  body.finish('10}');

  expect(await (await inFlight).text()).toBe('paid');
  expect(await harness.getActiveScenario(testId)).toEqual({ scenarioId: 'checkout' });
  expect(await harness.getState(testId)).toEqual({ paid: 10 });

  // Once the call is over the session is an ordinary one again: idle long enough, it goes.
  now += 5000;
  await harness.switchScenario(randomUUID(), 'checkout');
  expect(await harness.getActiveScenario(testId)).toBeUndefined();
  expect(store.size).toBeLessThanOrEqual(3);
});
