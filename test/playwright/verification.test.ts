/**
 * The Playwright HarnessClient (control calls through Playwright's request context) verifying
 * the demo shop's calls over real HTTP, without a browser: the browser suite covers the fixture.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { createHarness, TEST_ID_HEADER } from 'scenario-harness';
import { HarnessClient } from 'scenario-harness/playwright';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createShopApp } from '../../examples/shop/app.js';
import { PAYMENTS_API, shopScenarios } from '../../examples/shop/scenarios.js';

const harness = createHarness({ enabled: true, scenarios: shopScenarios, unhandled: 'error', announce: false });
let origin: string;
let request: APIRequestContext;
let close: () => Promise<void>;

beforeAll(async () => {
  await harness.start();
  const server = createShopApp(harness).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  request = await playwrightRequest.newContext();
  close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
});
afterAll(async () => {
  await request?.dispose();
  await close?.();
  await harness.stop();
});

const checkout = (testId: string, amount: number) => request.post(`${origin}/checkout`, { headers: { [TEST_ID_HEADER]: testId }, form: { amount: String(amount) } });

test('through Playwright\'s request context: expectCalled returns the matching calls, with the mock and layer that answered', async () => {
  const client = new HarnessClient<typeof shopScenarios>({ request, testId: `pw-${randomUUID()}`, baseURL: origin });
  await client.switchScenario('paymentDeclined');
  expect((await checkout(client.testId, 2500)).status()).toBe(402);
  const [charge] = await client.expectCalled({ method: 'POST', url: '*/v1/charges', body: { amount: 2500, currency: 'eur' } }, { times: 1 });
  expect(charge).toMatchObject({ url: `${PAYMENTS_API}/v1/charges`, scenarioId: 'paymentDeclined', layer: 'scenario', mockIndex: 0, status: 402 });
  await expect(client.waitForCall({ method: 'POST' }, { timeout: 0 })).resolves.toEqual(charge);
  const message = await client.expectCalled({ url: '*/v1/charges', body: { amount: 99999 } }).catch((error: Error) => error.message);
  expect(message).toBe(
    [
      `Expected test "${client.testId}" to call any method */v1/charges with body {"amount":99999} at least once, but it made no such call.`,
      'Closest calls, and why each does not match:',
      `  POST ${PAYMENTS_API}/v1/charges → 402 by paymentDeclined#0`,
      '      body.amount: expected 99999, received 2500',
      'The test\'s calls (1, oldest first):',
      `  POST ${PAYMENTS_API}/v1/charges → 402 by paymentDeclined#0`,
    ].join('\n'),
  );
  await client.endTest();
  expect(await client.calls()).toEqual([]);
});
