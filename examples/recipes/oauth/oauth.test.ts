import { randomUUID } from 'node:crypto';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { scenarios } from './scenarios.js';

const harness = createHarness({ enabled: true, scenarios, unhandled: 'error' });

beforeAll(() => harness.start());
afterAll(() => harness.stop());

/** The app's client-credentials flow: a token, then an API call with it. */
async function listOrders(): Promise<{ status: number; body: unknown }> {
  const token = await fetch('https://auth.example.com/oauth/token', {
    method: 'POST',
    // URLSearchParams: fetch sends application/x-www-form-urlencoded.
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'shop', client_secret: 'not-a-secret', scope: 'orders:read' }),
  });
  if (!token.ok) return { status: token.status, body: await token.json() };
  const { access_token } = (await token.json()) as { access_token: string };
  const orders = await fetch('https://api.example.com/orders', { headers: { authorization: `Bearer ${access_token}` } });
  return { status: orders.status, body: await orders.json() };
}

test('the token from the token endpoint opens the API', async () => {
  const testId = randomUUID();
  expect(await harness.run(testId, listOrders)).toEqual({ status: 200, body: [{ id: 'o_1', total: 2500 }] });
  expect(await harness.getState(testId)).toEqual({ 'tokens.issued': true });
});

test('refused client credentials', async () => {
  const testId = randomUUID();
  await harness.switchScenario(testId, 'badCredentials');
  expect(await harness.run(testId, listOrders)).toEqual({ status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } });
});
