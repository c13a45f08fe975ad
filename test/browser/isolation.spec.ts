import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TEST_ID_HEADER } from 'scenario-harness';
import { HarnessClient } from 'scenario-harness/playwright';
import { test, expect } from './fixtures.js';

test('every test gets its own test ID, exposed as harness.testId and harnessTestId', async ({ harness, harnessTestId, extraHTTPHeaders }, testInfo) => {
  expect(harness.testId).toBe(harnessTestId);
  expect(harness.testId.startsWith(`${testInfo.testId}-r${testInfo.retry}-`)).toBe(true);
  expect(extraHTTPHeaders?.[TEST_ID_HEADER]).toBe(harness.testId);
});

test('page navigations and the request fixture both carry the test ID', async ({ page, request, harness }) => {
  const [navigation] = await Promise.all([page.waitForRequest('**/checkout'), page.goto('/checkout')]);
  expect(await navigation.headerValue(TEST_ID_HEADER)).toBe(harness.testId);
  const response = await request.get('/__scenario__');
  expect(await response.json()).toEqual({ error: 'No active scenario for this test ID', testId: harness.testId });
});

test('page requests and the request fixture carry the test ID in baggage too, for services that read it', async ({ page, request, harness }) => {
  const baggage = `harness-test-id=${harness.testId}`;
  const [navigation] = await Promise.all([page.waitForRequest('**/checkout'), page.goto('/checkout')]);
  expect(await navigation.headerValue('baggage')).toBe(baggage);
  expect(harness.headers).toEqual({ [TEST_ID_HEADER]: harness.testId, baggage });
  const [fetched] = await Promise.all([page.waitForRequest('**/__harness__/state'), page.evaluate(() => fetch('/__harness__/state').then((r) => r.status))]);
  expect(await fetched.headerValue('baggage')).toBe(baggage);
  // The request fixture's headers, as a server sees them (a loopback echo server of the test's own).
  const echo = createServer((req, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify(req.headers)));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  try {
    const response = await request.get(`http://127.0.0.1:${(echo.address() as AddressInfo).port}/`);
    expect(await response.json()).toMatchObject({ [TEST_ID_HEADER]: harness.testId, baggage });
  } finally {
    echo.closeAllConnections();
    await new Promise((resolve) => echo.close(resolve));
  }
});

test('a context the test opens itself carries the test ID as well', async ({ browser, harness }) => {
  await harness.switchScenario('premium');
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByTestId('tier')).toHaveText('premium');
  } finally {
    await context.close();
  }
});

test('two test IDs in one browser never see each other\'s scenario', async ({ browser, page, harness, baseURL }) => {
  const otherId = `${harness.testId}-neighbour`;
  const neighbour = await browser.newContext({ extraHTTPHeaders: { [TEST_ID_HEADER]: otherId } });
  const neighbourHarness = new HarnessClient({ request: neighbour.request, testId: otherId, baseURL });
  try {
    await harness.switchScenario('premium', { variant: 'gold' });
    await neighbourHarness.switchScenario('usersDown');
    const neighbourPage = await neighbour.newPage();
    await Promise.all([page.goto('/'), neighbourPage.goto('/')]);
    await expect(page.getByTestId('tier')).toHaveText('gold');
    await expect(neighbourPage.getByTestId('user-error')).toBeVisible();
    expect(await harness.getActiveScenario()).toMatchObject({ scenarioId: 'premium', variant: 'gold' });
    expect(await neighbourHarness.getActiveScenario()).toMatchObject({ scenarioId: 'usersDown' });
  } finally {
    await neighbourHarness.endTest();
    await neighbour.close();
  }
});

test.describe('with headers of the test\'s own', () => {
  // Extend (not test.use) to add headers: the extension receives the harness's headers and keeps them.
  const withLocale = test.extend({
    extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => use({ ...extraHTTPHeaders, 'x-shop-locale': 'de' }),
  });

  withLocale('both the own header and the test ID reach the app', async ({ page, harness }) => {
    const [navigation] = await Promise.all([page.waitForRequest('**/checkout'), page.goto('/checkout')]);
    expect(await navigation.headerValue('x-shop-locale')).toBe('de');
    expect(await navigation.headerValue(TEST_ID_HEADER)).toBe(harness.testId);
  });
});

test.describe('a test.use() that replaces extraHTTPHeaders', () => {
  test.use({ extraHTTPHeaders: { 'x-shop-locale': 'fr' } });
  // The harness refuses to run the test without its header rather than let it share `default-test`.
  test.fail('fails the test instead of leaking it into the default test ID', async ({ page }) => {
    await page.goto('/');
  });
  // test.fail() accepts any failure: only the harness's own refusal counts as the expected one.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a hook's fixtures from its first parameter.
  test.afterEach(async ({}, testInfo) => {
    const refused = testInfo.errors.some((error) => error.message?.includes('extraHTTPHeaders no longer carries x-harness-test-id'));
    if (!refused) testInfo.expectedStatus = 'passed';
  });
});
