import { harnessTest } from 'scenario-harness/playwright';
import { expect } from '@playwright/test';

// The Playwright fixture (on Node) driving a Hono app on Bun.serve or Deno.serve (issue 28,
// item 3): projects 'bun' and 'deno' of playwright.config.ts start test/runtimes/fixtures/page-app.js
// on the pinned runtime. Four workers run these at once against ONE app per runtime, each test
// isolated by its own test ID, as on Node.

// The app's scenarios are plain JavaScript (test/runtimes/fixtures/scenarios.js, shared by both runtimes).
const test = harnessTest();
const API = 'https://api.example.test';

test('the page shows the default scenario, served by the app on its runtime', async ({ page }, testInfo) => {
  await page.goto('/');
  await expect(page.locator('#runtime')).toHaveText(testInfo.project.name === 'bun' ? 'Bun' : 'Deno');
  await expect(page.locator('#greeting')).toHaveText('hello');
});

test('switchScenario() with a variant changes what the app server got, for this test only', async ({ page, harness }) => {
  await harness.switchScenario('grumpy', { variant: 'shouting' });
  await page.goto('/');
  await expect(page.locator('#greeting')).toHaveText('GO AWAY');
  expect(await harness.getActiveScenario()).toMatchObject({ scenarioId: 'grumpy', variant: 'shouting' });
});

test("harness.use() gives this test its own answer; the journal shows the app server's call", async ({ page, harness }) => {
  await harness.use({ method: 'GET', url: `${API}/greeting`, response: { body: { greeting: 'only for this test' } } });
  await page.goto('/');
  await expect(page.locator('#greeting')).toHaveText('only for this test');
  await harness.expectCalled({ method: 'GET', url: `${API}/greeting` }, { times: 1 });
  expect(await harness.calls({ url: `${API}/greeting` })).toMatchObject([{ answered: true, layer: 'test', status: 200 }]);
});

test('setState() seeds what a template on the state renders', async ({ page, harness }) => {
  await harness.setState({ count: 7 });
  await page.goto('/cart');
  await expect(page.locator('#count')).toHaveText('7');
});

test('a mocked network fault reaches the app server as a failed fetch', async ({ page, harness }) => {
  await harness.use({ method: 'GET', url: `${API}/greeting`, response: { error: 'network' } });
  const response = await page.goto('/');
  expect(response?.status()).toBe(502);
  await expect(page.locator('#failure')).not.toBeEmpty();
  expect(await harness.calls({ url: `${API}/greeting` })).toMatchObject([{ answered: true, layer: 'test' }]);
});

test("an unmocked call fails with the harness's message (unhandled: 'error'), never reaching the network", async ({ page, harness }) => {
  const response = await page.goto('/unmocked');
  expect(response?.status()).toBe(502);
  await expect(page.locator('#failure')).toContainText('No mock answers GET https://unmocked.example.test/anything');
  expect(await harness.calls({ url: 'https://unmocked.example.test/anything' })).toMatchObject([{ answered: false, unhandled: 'failed' }]);
});
