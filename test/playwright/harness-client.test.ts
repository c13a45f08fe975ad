/**
 * HarnessClient over real HTTP against the demo shop, without a browser: the fixture's control
 * calls and their error texts. The browser suite (test/browser) covers the fixtures themselves.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { createHarness, isHarnessError, TEST_ID_HEADER, type HarnessEndpoints } from 'scenario-harness';
import { HarnessClient } from 'scenario-harness/playwright';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createShopApp } from '../../examples/shop/app.js';
import { shopScenarios } from '../../examples/shop/scenarios.js';
import { freePort } from '../support/free-port.js';

interface Shop {
  origin: string;
  close(): Promise<void>;
}

const CUSTOM_ENDPOINTS = { setScenario: '/_t/scenario', getScenario: '/_t/active', getState: '/_t/state' } satisfies HarnessEndpoints;

async function startShop(options: { enabled: boolean; endpoints?: HarnessEndpoints }): Promise<Shop> {
  const harness = createHarness({ ...options, scenarios: shopScenarios, unhandled: 'error' });
  await harness.start();
  const server = createShopApp(harness).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await harness.stop();
    },
  };
}

let shop: Shop;
let customShop: Shop;
let disabledShop: Shop;
let request: APIRequestContext;

beforeAll(async () => {
  // One process, two enabled harnesses: the first one started answers the intercepted calls
  // (src/core/interception.ts), so `shop` starts first and the custom-path shop is only asked control calls.
  shop = await startShop({ enabled: true });
  customShop = await startShop({ enabled: true, endpoints: CUSTOM_ENDPOINTS });
  disabledShop = await startShop({ enabled: false });
  request = await playwrightRequest.newContext();
});
afterAll(async () => {
  await request?.dispose();
  await Promise.all([shop?.close(), customShop?.close(), disabledShop?.close()]);
});

const client = (options: { baseURL?: string; endpoints?: HarnessEndpoints } = {}) =>
  new HarnessClient<typeof shopScenarios>({ request, testId: `client-${randomUUID()}`, baseURL: shop.origin, ...options });

/** What the shop's `/api/me` answers for a test ID. */
async function tierOf(testId: string): Promise<string> {
  const response = await request.get(`${shop.origin}/api/me`, { headers: { [TEST_ID_HEADER]: testId } });
  return ((await response.json()) as { tier: string }).tier;
}

/** Buy something as `testId`: the happy path's charge mock writes the amount into the state. */
async function checkout(testId: string, amount: number): Promise<void> {
  const response = await request.post(`${shop.origin}/checkout`, { form: { amount: String(amount) }, headers: { [TEST_ID_HEADER]: testId } });
  expect(response.status()).toBe(200);
}

test('switchScenario selects the scenario and variant for its own test ID only', async () => {
  const harness = client();
  const neighbour = client();
  await harness.switchScenario('premium', { variant: 'gold' });
  expect(await tierOf(harness.testId)).toBe('gold');
  expect(await tierOf(neighbour.testId)).toBe('standard');
  expect(await harness.getActiveScenario()).toEqual({ scenarioId: 'premium', scenarioName: 'Premium user', variant: 'gold' });
  expect(await neighbour.getActiveScenario()).toBeUndefined();
});

test('a switch to an unregistered scenario throws the server\'s error text', async () => {
  const harness = new HarnessClient({ request, testId: `client-${randomUUID()}`, baseURL: shop.origin });
  const error: unknown = await harness.switchScenario('premum').catch((caught: unknown) => caught);
  expect(isHarnessError(error) && error.code).toBe('UNKNOWN_SCENARIO');
  expect((error as Error).message).toBe(
    `Failed to switch test "${harness.testId}" to scenario "premum": POST ${shop.origin}/__scenario__ answered 400: Scenario 'premum' not found. Did you forget to register it? Did you mean "premium"? Registered scenarios: "default", "premium", "paymentDeclined", "slowNetwork", "usersDown", "orderPolling".`,
  );
});

test('a switch the server rejects as invalid carries its validation details', async () => {
  const harness = new HarnessClient({ request, testId: `client-${randomUUID()}`, baseURL: shop.origin });
  const error: unknown = await harness.switchScenario('').catch((caught: unknown) => caught);
  expect(isHarnessError(error) && error.code).toBe('INVALID_ARGUMENT');
  expect((error as Error).message).toMatch(/^Failed to switch test "client-[\w-]+" to scenario "": POST http:\/\/127\.0\.0\.1:\d+\/__scenario__ answered 400: Invalid request body Details: \[\{.*"path":\["scenario"\]/);
});

test('getState returns what the mocks wrote for this test, and nothing of other tests', async () => {
  const harness = client();
  expect(await harness.getState()).toEqual({});
  await checkout(harness.testId, 1999);
  expect(await harness.getState()).toEqual({ 'cart.lastAmount': 1999, charges: [{ amount: 1999, currency: 'eur' }] });
  expect(await client().getState()).toEqual({});
});

test('waitForState resolves with the state once the predicate holds', async () => {
  const harness = client();
  const waiting = harness.waitForState((state) => (state.charges as unknown[]).length === 2, { intervals: [20] });
  await checkout(harness.testId, 100);
  await checkout(harness.testId, 200);
  expect(await waiting).toEqual({ 'cart.lastAmount': 200, charges: [{ amount: 100, currency: 'eur' }, { amount: 200, currency: 'eur' }] });
});

test('waitForState times out with the last state seen and the predicate\'s last error', async () => {
  const harness = client();
  await checkout(harness.testId, 4200);
  const error: unknown = await harness
    .waitForState((state) => (state['orders.polls'] as string[]).length > 0, { timeout: 150, intervals: [40] })
    .catch((caught: unknown) => caught);
  expect((error as Error).message).toMatch(
    new RegExp(
      `^Failed to wait for the state of test "${harness.testId}": the predicate did not hold within 150 ms \\(\\d+ polls\\)\\. ` +
        `Last state seen: \\{"cart\\.lastAmount":4200,"charges":\\[\\{"amount":4200,"currency":"eur"\\}\\]\\}\\. ` +
        `The predicate last threw: TypeError: .+\\. Check what the app's mocks write \\(harness\\.getState\\(\\)\\) or raise \\{ timeout \\}\\.$`,
    ),
  );
});

test('endTest makes the app forget the test: scenario and state', async () => {
  const harness = client();
  await harness.switchScenario('premium');
  await checkout(harness.testId, 700);
  expect(await harness.getState()).not.toEqual({});
  await harness.endTest();
  expect(await harness.getActiveScenario()).toBeUndefined();
  expect(await harness.getState()).toEqual({});
  expect(await tierOf(harness.testId)).toBe('standard');
});

test('custom endpoint paths are used for every call', async () => {
  const harness = client({ baseURL: customShop.origin, endpoints: CUSTOM_ENDPOINTS });
  await harness.switchScenario('premium');
  const active = await request.get(`${customShop.origin}/_t/active`, { headers: { [TEST_ID_HEADER]: harness.testId } });
  expect(await active.json()).toEqual({ testId: harness.testId, scenarioId: 'premium', scenarioName: 'Premium user' });
  expect(await harness.getActiveScenario()).toMatchObject({ scenarioId: 'premium' });
  expect(await harness.getState()).toEqual({});
  await harness.endTest();
  expect(await harness.getActiveScenario()).toBeUndefined();
});

test('an app whose control endpoints are not there (disabled, or other paths) gets a 404 that says what to check', async () => {
  for (const origin of [disabledShop.origin, customShop.origin]) {
    const harness = client({ baseURL: origin });
    const error: unknown = await harness.switchScenario('premium').catch((caught: unknown) => caught);
    expect(isHarnessError(error) && error.code).toBe('INVALID_OPTIONS');
    expect((error as Error).message).toBe(
      `Failed to switch test "${harness.testId}" to scenario "premium": POST ${origin}/__scenario__ answered 404. Check that the app runs with the harness enabled (createHarness({ enabled: true })) and that use.harnessEndpoints matches its endpoints (on Next.js, that each has its route file).`,
    );
  }
});

test('an app that is not running fails with the URL and the cause', async () => {
  const origin = `http://127.0.0.1:${await freePort()}`;
  const harness = client({ baseURL: origin });
  await expect(harness.getState()).rejects.toThrow(
    new RegExp(`^Failed to read the state of test "${harness.testId}": GET ${origin}/__harness__/state failed: .*ECONNREFUSED.*\\. Is the app running at ${origin}\\?$`),
  );
});

test('without a baseURL the client says where to set one', async () => {
  const harness = client({ baseURL: undefined });
  await expect(harness.switchScenario('default')).rejects.toThrow(
    `Failed to switch test "${harness.testId}" to scenario "default": no baseURL. Set use.baseURL in playwright.config.ts to the app's origin.`,
  );
});

test('an empty test ID is refused at once', () => {
  expect(() => new HarnessClient({ request, testId: '', baseURL: shop.origin })).toThrow('Expected a non-empty test ID for the harness client, instead got "".');
});
