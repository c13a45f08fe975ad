import { test, expect } from './fixtures.js';

// The checkout form posts to the app, which charges the payments API; the happy path's charge
// mock writes `cart.lastAmount` and appends the charge to `charges` in the test's state.

test('a form post under the happy path is accepted and writes the amount into the state', async ({ page, harness }) => {
  await page.goto('/checkout');
  await page.getByTestId('amount').fill('2500');
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('payment-result')).toHaveText('Payment accepted (ch_happy)');
  const state = await harness.waitForState((s) => s['cart.lastAmount'] === 2500);
  expect(state).toEqual({ 'cart.lastAmount': 2500, charges: [{ amount: 2500, currency: 'eur' }] });
});

test('every form post appends its charge to the state, in order', async ({ page, harness }) => {
  for (const amount of ['1200', '3400', '560']) {
    await page.goto('/checkout');
    await page.getByTestId('amount').fill(amount);
    await page.getByTestId('pay').click();
    await expect(page.getByTestId('payment-result')).toContainText('Payment accepted');
  }
  const state = await harness.waitForState((s) => Array.isArray(s.charges) && s.charges.length === 3);
  expect(state.charges).toEqual([1200, 3400, 560].map((amount) => ({ amount, currency: 'eur' })));
  expect(state['cart.lastAmount']).toBe(560);
});

test('the form post carries the test ID, like every other page request', async ({ page, harness }) => {
  await page.goto('/checkout');
  const [post] = await Promise.all([
    page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/checkout')),
    page.getByTestId('pay').click(),
  ]);
  expect(await post.headerValue('x-harness-test-id')).toBe(harness.testId);
  await expect(page.getByTestId('payment-result')).toBeVisible();
});

test('the paymentDeclined scenario declines the card and writes no state', async ({ page, harness }) => {
  await harness.switchScenario('paymentDeclined');
  await page.goto('/checkout');
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('payment-result')).toHaveText('Your card was declined.');
  await expect(page.getByTestId('payment-result')).toHaveClass('error');
  expect(await harness.getState()).toEqual({});
});

test('a large amount is declined for its own reason: the more specific mock wins', async ({ page, harness }) => {
  await harness.switchScenario('paymentDeclined');
  await page.goto('/checkout');
  await page.getByTestId('amount').fill('250000');
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('payment-result')).toHaveText('Amount over the card limit.');
});

test('switching the scenario clears the state the form post wrote', async ({ page, harness }) => {
  await page.goto('/checkout');
  await page.getByTestId('pay').click();
  await harness.waitForState((s) => s['cart.lastAmount'] === 2500);
  await harness.switchScenario('default');
  expect(await harness.getState()).toEqual({});
});

test('a slow payments API delays the answer, and its charge still lands in the state', async ({ page, harness }) => {
  await harness.switchScenario('slowNetwork');
  await page.goto('/checkout');
  await page.getByTestId('amount').fill('990');
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('payment-result')).toHaveText('Payment accepted (ch_slow)');
  expect(await harness.getState()).toEqual({ 'cart.lastAmount': 990, charges: [{ amount: 990, currency: 'eur' }] });
});

test('the request fixture can post the form too, as the same test', async ({ request, harness }) => {
  await harness.switchScenario('paymentDeclined');
  const response = await request.post('/checkout', { form: { amount: '2500' } });
  expect(response.status()).toBe(402);
  expect(await response.text()).toContain('Your card was declined.');
});
