import { randomUUID } from 'node:crypto';
import { createHarness } from 'scenario-harness';
import Stripe from 'stripe';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { scenarios } from './scenarios.js';

const harness = createHarness({ enabled: true, scenarios, unhandled: 'error' });
// Any key will do: no call reaches Stripe. No retries, so a failure shows at once.
const stripe = new Stripe('sk_test_not_a_real_key', { maxNetworkRetries: 0 });

beforeAll(() => harness.start());
afterAll(() => harness.stop());

/** What the app does for an order, run as test `testId` (as the adapter does for a request). */
const pay = (testId: string, orderId: string) =>
  harness.run(testId, () =>
    stripe.paymentIntents.create({ amount: 2500, currency: 'eur', payment_method: 'pm_card_visa', confirm: true, metadata: { order_id: orderId } }),
  );

test('a payment goes through and is recorded in the test state', async () => {
  const testId = randomUUID();
  const intent = await pay(testId, '7');
  expect([intent.id, intent.status, intent.amount]).toEqual(['pi_7', 'succeeded', 2500]);
  expect(await harness.getState(testId)).toEqual({ paid: ['7'] });
});

test('a declined card throws the SDK\'s StripeCardError', async () => {
  const testId = randomUUID();
  await harness.switchScenario(testId, 'cardDeclined');
  await expect(pay(testId, '8')).rejects.toMatchObject({ type: 'StripeCardError', code: 'card_declined', decline_code: 'insufficient_funds' });
});
