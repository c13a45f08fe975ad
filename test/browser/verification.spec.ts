import { test, expect } from './fixtures.js';

// Verifying what the app sent to the payments API, from a browser test: the checkout form posts
// to the app, the app charges the API, the test reads the journal of its own test ID.

test('waitForCall and expectCalled see the charge the checkout sent, with its body and the mock that answered', async ({ page, harness }) => {
  await harness.switchScenario('paymentDeclined');
  await page.goto('/checkout');
  await page.getByTestId('amount').fill('125000');
  await page.getByTestId('pay').click();
  const charge = await harness.waitForCall({ method: 'POST', url: '*/v1/charges' });
  expect(charge).toMatchObject({ requestBody: { amount: 125000, currency: 'eur' }, answered: true, scenarioId: 'paymentDeclined', mockIndex: 1, status: 402 });
  await expect(page.getByTestId('payment-result')).toHaveText('Amount over the card limit.');
  await harness.expectCalled({ method: 'POST', url: '*/v1/charges', body: { amount: 125000, currency: 'eur' } }, { times: 1 });
  await harness.expectCalled({ url: 'https://users.example.test/*' }, { times: 0 });
  // The page's own requests ran as this test; another test's calls are not in this journal.
  expect(await harness.calls()).toHaveLength(1);
});

test('expectCalled fails with the near miss of the charge that was sent', async ({ page, harness }) => {
  await page.goto('/checkout');
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('payment-result')).toContainText('Payment accepted');
  await expect(harness.expectCalled({ method: 'POST', url: '*/v1/charges', body: { amount: 5000 } })).rejects.toThrow(
    'Closest calls, and why each does not match:\n  POST https://payments.example.test/v1/charges → 201 by default#1\n      body.amount: expected 5000, received 2500',
  );
});
