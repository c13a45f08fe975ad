/**
 * The app's Stripe routes. The client is built at import time, before the harness starts; the
 * SDK sends form-encoded bodies (`metadata[order_id]=7`) through node:https.
 */
import type { Express } from 'express';
import Stripe from 'stripe';
import type { Gates } from './gates.js';

// No retries: an unanswered call must fail once, at once.
export const stripe = new Stripe('sk_test_not_a_real_key', { maxNetworkRetries: 0 });

/** A Stripe API error as the app reports it: the SDK's type, code and status. */
function stripeFailure(error: unknown) {
  if (!(error instanceof Stripe.errors.StripeError) || error.type === 'StripeConnectionError') throw error;
  return { failed: { type: error.type, code: error.code, status: error.statusCode } };
}

export function stripeRoutes(app: Express, gates: Gates): void {
  app.get('/account/customer-twice/:gate', async (req, res) => {
    const first = await stripe.customers.retrieve('cus_123');
    await gates.pass(req.params.gate);
    const second = await stripe.customers.retrieve('cus_123');
    res.json({ first: (first as Stripe.Customer).name, second: (second as Stripe.Customer).name });
  });
  app.get('/payments/:id/status', async (req, res) => void res.json({ status: (await stripe.paymentIntents.retrieve(req.params.id)).status }));
  app.post('/orders/:order/pay', async (req, res) => {
    const { amount } = req.body as { amount: number };
    try {
      const charge = await stripe.charges.create({ amount, currency: 'usd', source: 'tok_visa', metadata: { order_id: req.params.order } });
      res.json({ id: charge.id, amount: charge.amount, status: charge.status });
    } catch (error) {
      res.json(stripeFailure(error));
    }
  });
  app.post('/refunds', async (req, res) => void res.json(await stripe.refunds.create({ charge: (req.body as { charge: string }).charge })));
}
