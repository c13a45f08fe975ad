import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BAGGAGE_TEST_ID_KEY, createHarness } from 'scenario-harness';
import { withHarness } from 'scenario-harness/node';
import { afterAll, beforeAll, expect, test } from 'vitest';

const API = 'https://api.baggage.test';
const harness = createHarness({
  enabled: true,
  unhandled: 'error',
  scenarios: {
    default: { name: 'Default', mocks: [{ url: `${API}/who`, response: { body: 'default' } }] },
    premium: { name: 'Premium', mocks: [{ url: `${API}/who`, response: { body: 'premium' } }] },
  },
});
let server: Server;
let origin: string;

beforeAll(async () => {
  await harness.start();
  server = createServer(withHarness(harness, async (_req, res) => res.end(await (await fetch(`${API}/who`)).text())));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await harness.stop();
});

test('a service that forwards only W3C baggage is one test: the switch and the app call both read harness-test-id', async () => {
  expect(BAGGAGE_TEST_ID_KEY).toBe('harness-test-id');
  const baggage = `traceparent-ish=1, ${BAGGAGE_TEST_ID_KEY}=order%20flow%201;ttl=60`;
  const switched = await fetch(`${origin}/__scenario__`, { method: 'POST', headers: { baggage, 'content-type': 'application/json' }, body: '{"scenario":"premium"}' });
  expect(await switched.json()).toEqual({ success: true, testId: 'order flow 1', scenarioId: 'premium' });
  expect(await (await fetch(`${origin}/page`, { headers: { baggage } })).text()).toBe('premium');
  expect(await (await fetch(`${origin}/page`, { headers: { baggage: 'userId=alice' } })).text()).toBe('default');
  // The header wins over baggage.
  expect(await (await fetch(`${origin}/page`, { headers: { baggage, 'x-harness-test-id': 'someone-else' } })).text()).toBe('default');
  expect(await harness.getActiveScenario('order flow 1')).toEqual({ scenarioId: 'premium' });
});
