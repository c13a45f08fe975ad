/**
 * The Playwright fixture's client (Playwright's request context, no browser) against the demo
 * shop: a test's own mocks and seeded state, as a Playwright test uses them.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { createHarness, TEST_ID_HEADER } from 'scenario-harness';
import { HarnessClient } from 'scenario-harness/playwright';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createShopApp } from '../../examples/shop/app.js';
import { shopScenarios, USERS_API } from '../../examples/shop/scenarios.js';

const harness = createHarness({ enabled: true, scenarios: shopScenarios, unhandled: 'error', announce: false });
let server: Server;
let origin: string;
let request: APIRequestContext;

beforeAll(async () => {
  await harness.start();
  server = createShopApp(harness).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  request = await playwrightRequest.newContext();
});
afterAll(async () => {
  await request?.dispose();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await harness.stop();
});

const me = async (testId: string) => (await (await request.get(`${origin}/api/me`, { headers: { [TEST_ID_HEADER]: testId } })).json()) as { name: string; tier: string };

test("use() answers this test's calls before its scenario, and the test's end removes them", async () => {
  const harness = new HarnessClient<typeof shopScenarios>({ request, testId: `pw-${randomUUID()}`, baseURL: origin });
  await harness.switchScenario('premium', { variant: 'gold' });
  expect(await harness.use({ method: 'GET', url: `${USERS_API}/me`, response: { body: { name: 'Only Me', tier: '{{state.tier}}' } } })).toBe(1);
  await harness.setState({ tier: 'platinum' });
  expect(await me(harness.testId)).toEqual({ name: 'Only Me', tier: 'platinum' });
  expect(await me(`pw-${randomUUID()}`)).toEqual({ name: 'Ada Lovelace', tier: 'standard' });
  const [call] = await harness.calls({ url: `${USERS_API}/me` });
  expect(call).toMatchObject({ layer: 'test', scenarioId: 'premium', mockIndex: 0 });
  // What the fixture does at teardown.
  await harness.endTest();
  expect(await me(harness.testId)).toEqual({ name: 'Ada Lovelace', tier: 'standard' });
});

test('resetMocks() leaves the scenario to answer; an invalid mock fails with the field named', async () => {
  const harness = new HarnessClient<typeof shopScenarios>({ request, testId: `pw-${randomUUID()}`, baseURL: origin });
  await harness.use({ method: 'GET', url: `${USERS_API}/me`, response: { body: { name: 'Only Me', tier: 'x' } } });
  await harness.resetMocks();
  expect((await me(harness.testId)).name).toBe('Ada Lovelace');
  await expect(harness.use({ method: 'GET', url: `${USERS_API}/me`, sequence: { responses: [] } })).rejects.toThrow(/answered 400: Invalid request body: mocks\[0\]\.sequence\.responses: /);
});
