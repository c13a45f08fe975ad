/**
 * The Stripe SDK (v23), built at import time, driven through an Express app: customers per
 * test, a payment intent polled through a sequence, the form-encoded charge matched on
 * `match.body` with numbers and nested metadata, setState, and an unanswered refund.
 */
import { randomUUID } from 'node:crypto';
import { defineScenarios } from 'scenario-harness';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Gate } from './gates.js';
import { stripeRoutes } from './stripe-app.js';
import { useClientApp } from './use-client-app.js';

const API = 'https://api.stripe.com/v1';
const customer = (name: string) => ({ id: '{{params.id}}', object: 'customer', name });
const intent = (status: string) => ({ id: '{{params.id}}', object: 'payment_intent', status });

const scenarios = defineScenarios({
  default: {
    name: 'Payments work',
    mocks: [
      { method: 'GET', url: `${API}/customers/:id`, response: { body: customer('Default Customer') } },
      {
        method: 'GET',
        url: `${API}/payment_intents/:id`,
        sequence: { responses: [{ body: intent('processing') }, { body: intent('processing') }, { body: intent('succeeded') }] },
      },
      {
        method: 'POST',
        url: `${API}/charges`,
        // The README's example, as the SDK sends it: amount=5000&currency=usd&metadata[order_id]=7
        match: { body: { amount: 5000, currency: 'usd', metadata: { order_id: '7' } } },
        response: { body: { id: 'ch_order_{{body.metadata.order_id}}', object: 'charge', amount: 5000, currency: '{{body.currency}}', status: 'succeeded' } },
        afterResponse: { setState: { 'charges[]': { order: '{{body.metadata.order_id}}', amount: '{{body.amount}}' }, 'last.source': '{{body.source}}' } },
      },
      {
        method: 'POST',
        url: `${API}/charges`,
        response: { status: 402, body: { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } } },
      },
    ],
  },
  alice: { name: 'Alice', mocks: [{ method: 'GET', url: `${API}/customers/:id`, response: { body: customer('Alice') } }] },
  bob: { name: 'Bob', mocks: [{ method: 'GET', url: `${API}/customers/:id`, response: { body: customer('Bob') } }] },
});

/** The API's published document, cut down to what this suite calls: the suite runs again with contracts on. */
const STRIPE_DOCUMENT = fileURLToPath(new URL('./contracts/stripe-openapi.yaml', import.meta.url));

for (const contracts of [undefined, { openapi: [STRIPE_DOCUMENT] }]) {
  describe(contracts === undefined ? 'the Stripe SDK' : 'the Stripe SDK, contracts on (Stripe\'s document)', () => {
    const app = useClientApp({ scenarios, routes: stripeRoutes, contracts });

    test('three test IDs in flight at once each get their own scenario\'s customer', async () => {
      const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
      await app().switchScenario(a, 'alice');
      await app().switchScenario(b, 'bob');
      const [gateA, gateB, gateC] = [a, b, c].map((id) => app().gates.gate(id)) as [Gate, Gate, Gate];
      try {
        const requestA = app().call(a, `/account/customer-twice/${a}`);
        await gateA.arrived;
        const requestB = app().call(b, `/account/customer-twice/${b}`);
        await gateB.arrived;
        const requestC = app().call(c, `/account/customer-twice/${c}`);
        await gateC.arrived;
        gateA.release();
        expect(await requestA).toEqual({ status: 200, body: { first: 'Alice', second: 'Alice' } });
        gateC.release();
        expect(await requestC).toEqual({ status: 200, body: { first: 'Default Customer', second: 'Default Customer' } });
        gateB.release();
        expect(await requestB).toEqual({ status: 200, body: { first: 'Bob', second: 'Bob' } });
      } finally {
        [gateA, gateB, gateC].forEach((gate) => gate.release());
      }
    });

    test('a payment intent polled through a sequence: processing, processing, succeeded — per test ID', async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      const poll = async (testId: string) => ((await app().call(testId, '/payments/pi_42/status')).body as { status: string }).status;
      expect([await poll(a), await poll(a), await poll(b), await poll(a), await poll(a)]).toEqual(['processing', 'processing', 'processing', 'succeeded', 'succeeded']);
    });

    test('the form-encoded charge matches match.body { amount: 5000, currency, metadata: { order_id } } and feeds templates', async () => {
      const testId = randomUUID();
      expect(await app().call(testId, '/orders/7/pay', { body: { amount: 5000 } })).toEqual({ status: 200, body: { id: 'ch_order_7', amount: 5000, status: 'succeeded' } });
      // Another amount, another order: the body-matching mock does not answer; the declining one does.
      expect((await app().call(testId, '/orders/7/pay', { body: { amount: 100 } })).body).toEqual({ failed: { type: 'StripeCardError', code: 'card_declined', status: 402 } });
      expect((await app().call(testId, '/orders/8/pay', { body: { amount: 5000 } })).body).toEqual({ failed: { type: 'StripeCardError', code: 'card_declined', status: 402 } });
    });

    test('afterResponse.setState from the form fields is read back through GET /__harness__/state', async () => {
      const testId = randomUUID();
      await app().call(testId, '/orders/7/pay', { body: { amount: 5000 } });
      await app().call(testId, '/orders/7/pay', { body: { amount: 5000 } });
      // Form fields are text: {{body.amount}} is '5000'.
      expect(await app().state(testId)).toEqual({
        status: 200,
        body: { testId, state: { charges: [{ order: '7', amount: '5000' }, { order: '7', amount: '5000' }], 'last.source': 'tok_visa' } },
      });
    });

    test('an unanswered call (a refund) fails in the app with an error that names scenario-harness and the test ID', async () => {
      const testId = randomUUID();
      const reply = await app().call(testId, '/refunds', { body: { charge: 'ch_1' } });
      expect(reply.status).toBe(502);
      const messages = (reply.body as { errors: string[] }).errors;
      // Stripe's StripeConnectionError keeps the underlying error as `detail`.
      expect(messages[0]).toMatch(/^An error occurred with our connection to Stripe/);
      expect(messages.find((message) => message.includes('[scenario-harness] No mock answers POST https://api.stripe.com/v1/refunds'))).toContain(`for test "${testId}"`);
    });

    if (contracts !== undefined) {
      test("with contracts on, every answered call was checked against Stripe's document and fits it", async () => {
        const testId = randomUUID();
        await app().call(testId, '/orders/7/pay', { body: { amount: 5000 } });
        await app().call(testId, '/orders/8/pay', { body: { amount: 5000 } });
        await app().call(testId, '/payments/pi_1/status');
        const { body } = await app().call(testId, '/__harness__/journal');
        const calls = (body as { calls: { method: string; url: string; status: number; contractViolations?: string[] }[] }).calls;
        expect(calls.map(({ method, url, status, contractViolations }) => [method, url, status, contractViolations])).toEqual([
          ['POST', 'https://api.stripe.com/v1/charges', 200, []],
          ['POST', 'https://api.stripe.com/v1/charges', 402, []],
          ['GET', 'https://api.stripe.com/v1/payment_intents/pi_1', 200, []],
        ]);
      });
    }
  });
}
