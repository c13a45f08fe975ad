import { expect, test } from './fixtures.js';

/**
 * The Next.js example in a real browser: the page's own requests carry the test ID, and every
 * server-side call (server component, server action, getServerSideProps) answers from that
 * test's scenario with no header forwarded by the app.
 */

test('a server component answers from the default scenario when the test selected none', async ({ page }) => {
  await page.goto('/app-router/server-component');
  await expect(page.locator('#greeting')).toHaveText('hello from the default scenario');
});

test('a server component\'s fetch, cached fetch and node:http calls follow the test\'s switch', async ({ page, harness }) => {
  await harness.switchScenario('friendly');
  await page.goto('/app-router/server-component');
  await expect(page.locator('#greeting')).toHaveText('hi, friend');
  await expect(page.locator('#cached')).toHaveText('hi, friend');
  await expect(page.locator('#node-http')).toHaveText('hi, friend');
});

test('a switch after a cached render shows at once (Next\'s Data Cache never hides it)', async ({ page, harness }) => {
  await harness.switchScenario('friendly');
  await page.goto('/app-router/server-component');
  await expect(page.locator('#cached')).toHaveText('hi, friend');
  await harness.switchScenario('grumpy');
  await page.reload();
  await expect(page.locator('#cached')).toHaveText('go away');
});

test('a server action posted from the page calls upstream as the test', async ({ page, harness }) => {
  await harness.switchScenario('grumpy');
  await page.goto('/app-router/server-action');
  await page.getByRole('button', { name: 'Greet' }).click();
  await expect(page.locator('#greeting')).toHaveText('go away');
});

test('getServerSideProps on a Pages Router page answers from the test\'s scenario', async ({ page, harness }) => {
  await harness.switchScenario('friendly');
  await page.goto('/pages-router/gssp');
  await expect(page.locator('#greeting')).toHaveText('hi, friend');
});

test('two tests in one browser, two scenarios, the same page', async ({ page, harness, browser }) => {
  await harness.switchScenario('grumpy');
  const other = await browser.newContext({ extraHTTPHeaders: { 'x-harness-test-id': `${harness.testId}-other` } });
  try {
    const otherPage = await other.newPage();
    await otherPage.goto(`${test.info().project.use.baseURL}/app-router/server-component`);
    await page.goto('/app-router/server-component');
    await expect(page.locator('#greeting')).toHaveText('go away');
    await expect(otherPage.locator('#greeting')).toHaveText('hello from the default scenario');
  } finally {
    await other.close();
  }
});

test.describe("the browser's own calls", () => {
  test.use({ harnessBrowser: true });

  test("a client component's call to a third party and the server component's call answer from the same test's scenario", async ({ page, harness }) => {
    await harness.switchScenario('friendly');
    await page.goto('/app-router/browser-greeting');
    await expect(page.locator('#server-greeting')).toHaveText('hi, friend');
    await page.getByRole('button', { name: 'Greet from the browser' }).click();
    await expect(page.locator('#browser-greeting')).toHaveText('hi, friend');
    const calls = await harness.calls({ url: '*/upstream/greeting' });
    expect(calls.map(({ side }) => side ?? 'server')).toEqual(['server', 'browser']);
    expect(calls[1]!.url).toBe('https://greetings.example.test/upstream/greeting');
  });
});
