import { TEST_ID_HEADER } from 'scenario-harness';
import { HarnessClient } from 'scenario-harness/playwright';
import { test, expect } from './fixtures.js';

// orderPolling answers GET /v1/orders/:id from a sequence: processing, shipped, delivered, then
// the last one again; each answer appends the order ID to `orders.polls`.

test('the order ships while you watch: processing, shipped, delivered', async ({ page, harness }) => {
  await harness.switchScenario('orderPolling');
  await page.goto('/orders/1001');
  await expect(page.getByTestId('order-status')).toHaveText('processing');
  await page.reload();
  await expect(page.getByTestId('order-status')).toHaveText('shipped');
  await page.reload();
  await expect(page.getByTestId('order-status')).toHaveText('delivered');
});

test('a used-up sequence repeats its last answer', async ({ page, harness }) => {
  await harness.switchScenario('orderPolling');
  for (const expected of ['processing', 'shipped', 'delivered', 'delivered', 'delivered']) {
    await page.goto('/orders/77');
    await expect(page.getByTestId('order-status')).toHaveText(expected);
  }
});

test('each poll is recorded in the state, and waitForState waits for it', async ({ page, harness }) => {
  await harness.switchScenario('orderPolling');
  await page.goto('/orders/5');
  await page.goto('/orders/6');
  const state = await harness.waitForState((s) => (s['orders.polls'] as string[] | undefined)?.length === 2);
  expect(state).toEqual({ 'orders.polls': ['5', '6'] });
});

test('switching to the same scenario starts the sequence over', async ({ page, harness }) => {
  await harness.switchScenario('orderPolling');
  await page.goto('/orders/1001');
  await page.goto('/orders/1001');
  await expect(page.getByTestId('order-status')).toHaveText('shipped');
  await harness.switchScenario('orderPolling');
  await page.goto('/orders/1001');
  await expect(page.getByTestId('order-status')).toHaveText('processing');
});

test('without the polling scenario the order is delivered at once', async ({ page }) => {
  await page.goto('/orders/1001');
  await expect(page.getByTestId('order-status')).toHaveText('delivered');
  await page.reload();
  await expect(page.getByTestId('order-status')).toHaveText('delivered');
});

test('sequence positions belong to the test ID: another ID in the same browser starts at the beginning', async ({ page, harness, browser, baseURL }) => {
  await harness.switchScenario('orderPolling');
  await page.goto('/orders/9');
  await page.goto('/orders/9');
  await expect(page.getByTestId('order-status')).toHaveText('shipped');

  const otherId = `${harness.testId}-other`;
  const other = await browser.newContext({ extraHTTPHeaders: { [TEST_ID_HEADER]: otherId } });
  const otherHarness = new HarnessClient({ request: other.request, testId: otherId, baseURL });
  try {
    await otherHarness.switchScenario('orderPolling');
    const otherPage = await other.newPage();
    await otherPage.goto('/orders/9');
    await expect(otherPage.getByTestId('order-status')).toHaveText('processing');
  } finally {
    await otherHarness.endTest();
    await other.close();
  }
  await page.goto('/orders/9');
  await expect(page.getByTestId('order-status')).toHaveText('delivered');
});
