import { expect } from '@playwright/test';
import { test } from '../fixtures.js';

// Run only by journal-attachment.spec.ts, in a child Playwright process: a test that fails on
// purpose, so that the report shows the journal the fixture attaches to a failed test.

test('a declined big order charges 5000 (it charges 125000: this test fails)', async ({ page, harness }) => {
  await harness.switchScenario('paymentDeclined');
  await page.goto('/');
  await page.goto('/checkout');
  await page.getByTestId('amount').fill('125000');
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('payment-result')).toBeVisible();
  await harness.expectCalled({ method: 'POST', url: '*/v1/charges', body: { amount: 5000 } }, { times: 1 });
});

test('a passing test gets no journal attached', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('tier')).toHaveText('standard');
});
