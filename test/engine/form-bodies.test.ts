import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { defineScenarios } from 'scenario-harness';
import { expect, test } from 'vitest';
import { json, startHarness } from './with-harness.js';

// The real Stripe SDK: it encodes bodies as application/x-www-form-urlencoded with bracket
// keys (`metadata[order_id]=7`) and sends them through node:https, which the harness intercepts.
const stripe = new Stripe('sk_test_fake_key_for_the_harness', { maxNetworkRetries: 0 });

const scenarios = defineScenarios({
  default: {
    name: 'Payments work',
    mocks: [
      {
        method: 'POST',
        url: 'https://api.stripe.com/v1/charges',
        match: { body: { amount: 5000, currency: 'usd', metadata: { order_id: '7' } } },
        response: { body: { id: 'ch_order_{{body.metadata.order_id}}', object: 'charge', amount: '{{body.amount}}', currency: '{{body.currency}}', status: 'succeeded' } },
        afterResponse: { setState: { 'charges[]': { order: '{{body.metadata.order_id}}', amount: '{{body.amount}}' }, 'last.capture': '{{body.capture}}' } },
      },
      {
        method: 'POST',
        url: 'https://api.stripe.com/v1/payment_intents',
        match: { body: { amount: 1999, automatic_payment_methods: { enabled: true }, metadata: { order_id: { startsWith: 'ord_' } } } },
        response: { body: { id: 'pi_1', object: 'payment_intent', status: 'requires_payment_method', metadata: '{{body.metadata}}' } },
      },
      {
        method: 'POST',
        url: 'https://api.stripe.com/v1/checkout/sessions',
        match: { body: { mode: 'payment', line_items: [{ price: 'price_shirt', quantity: 2 }, { price: 'price_socks', quantity: 1 }] } },
        response: { body: { id: 'cs_1', object: 'checkout.session', url: 'https://checkout.stripe.test/cs_1' } },
      },
    ],
  },
  declined: {
    name: 'Cards are declined',
    mocks: [
      {
        method: 'POST',
        url: 'https://api.stripe.com/v1/charges',
        response: { status: 402, body: { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } } },
      },
    ],
  },
  oauth: {
    name: 'OAuth provider',
    mocks: [
      {
        method: 'POST',
        url: 'https://auth.x.test/oauth/token',
        match: { body: { grant_type: 'client_credentials', client_id: 'app-1' } },
        response: { body: { access_token: 'token-for-{{body.client_id}}', token_type: 'Bearer', expires_in: 3600, scope: '{{body.scope}}' } },
        afterResponse: { setState: { 'token.scope': '{{body.scope}}' } },
      },
      {
        method: 'POST',
        url: 'https://auth.x.test/oauth/token',
        match: { body: { grant_type: 'refresh_token' } },
        response: { body: { access_token: 'refreshed-{{body.refresh_token}}', token_type: 'Bearer', expires_in: 3600 } },
      },
      { method: 'POST', url: 'https://auth.x.test/oauth/token', response: { status: 400, body: { error: 'invalid_grant' } } },
    ],
  },
});

test('the Stripe SDK\'s charge matches match.body with numbers and nested metadata, and its form fields feed templates and setState as strings', async () => {
  const { harness, asTest } = await startHarness(scenarios);
  await asTest(undefined, async (testId) => {
    const charge = await stripe.charges.create({ amount: 5000, currency: 'usd', source: 'tok_visa', capture: false, metadata: { order_id: '7' } });
    // Form fields are text: {{body.amount}} is the string '5000', not the number.
    expect(charge).toMatchObject({ id: 'ch_order_7', amount: '5000', currency: 'usd', status: 'succeeded' });
    expect(await harness.getState(testId)).toEqual({ charges: [{ order: '7', amount: '5000' }], 'last.capture': 'false' });
    // metadata[order_id] may also be sent as a number: it is the same text on the wire.
    await stripe.charges.create({ amount: 5000, currency: 'usd', source: 'tok_visa', metadata: { order_id: 7 } as unknown as Stripe.MetadataParam });
    expect((await harness.getState(testId)).charges).toEqual([{ order: '7', amount: '5000' }, { order: '7', amount: '5000' }]);
  });
});

test('a payment intent and a checkout session match nested objects, matchers and arrays of line items', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    const intent = await stripe.paymentIntents.create({ amount: 1999, currency: 'eur', automatic_payment_methods: { enabled: true }, metadata: { order_id: 'ord_42', channel: 'web' } });
    expect(intent).toMatchObject({ id: 'pi_1', metadata: { order_id: 'ord_42', channel: 'web' } });
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      success_url: 'https://shop.test/ok',
      line_items: [{ price: 'price_shirt', quantity: 2 }, { price: 'price_socks', quantity: 1 }],
    });
    expect(session.url).toBe('https://checkout.stripe.test/cs_1');
  });
});

test('a charge the body match refuses fails clearly with unhandled: "error", and parallel test IDs keep their scenarios', async () => {
  const { harness, logs } = await startHarness(scenarios);
  const payer = randomUUID();
  const declined = randomUUID();
  await harness.switchScenario(declined, 'declined');
  const [ok, refused] = await Promise.allSettled([
    harness.run(payer, () => stripe.charges.create({ amount: 5000, currency: 'usd', metadata: { order_id: '7' } })),
    harness.run(declined, () => stripe.charges.create({ amount: 5000, currency: 'usd', metadata: { order_id: '7' } })),
  ]);
  expect(ok).toMatchObject({ status: 'fulfilled', value: { id: 'ch_order_7' } });
  expect(refused).toMatchObject({ status: 'rejected', reason: { type: 'StripeCardError', code: 'card_declined' } });

  await expect(harness.run(payer, () => stripe.charges.create({ amount: 4000, currency: 'usd', metadata: { order_id: '7' } }))).rejects.toMatchObject({ type: 'StripeConnectionError' });
  expect(logs.at(-1)).toContain(`error: No mock answers POST https://api.stripe.com/v1/charges for test "${payer}" in scenario "default"`);
  expect(logs.at(-1)).toContain('POST https://api.stripe.com/v1/charges (default#0): match.body.amount: expected 5000, received "4000"');
});

test('an OAuth token request sent by fetch with URLSearchParams matches its grant type, + decodes to a space', async () => {
  const { harness, asTest } = await startHarness(scenarios);
  await asTest('oauth', async (testId) => {
    const token = (body: Record<string, string>) => json('https://auth.x.test/oauth/token', { method: 'POST', body: new URLSearchParams(body) });
    expect(await token({ grant_type: 'client_credentials', client_id: 'app-1', client_secret: 's3cret', scope: 'read write' })).toEqual({
      status: 200,
      body: { access_token: 'token-for-app-1', token_type: 'Bearer', expires_in: 3600, scope: 'read write' },
    });
    expect(await harness.getState(testId)).toEqual({ 'token.scope': 'read write' });
    expect((await token({ grant_type: 'refresh_token', refresh_token: 'r/1+2' })).body).toMatchObject({ access_token: 'refreshed-r/1+2' });
    expect(await token({ grant_type: 'client_credentials', client_id: 'someone-else' })).toEqual({ status: 400, body: { error: 'invalid_grant' } });
    // A hand-written body with a charset parameter reads the same.
    const raw = await json('https://auth.x.test/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: 'grant_type=client_credentials&client_id=app-1&scope=r%C3%A9sum%C3%A9',
    });
    expect(raw.body).toMatchObject({ access_token: 'token-for-app-1', scope: 'résumé' });
  });
});

test('a form body past the parser\'s limits is refused with a message that names the call', async () => {
  const { asTest, logs } = await startHarness(scenarios);
  const body = Array.from({ length: 5000 }, (_, i) => `k${i}=v`).join('&');
  await asTest('oauth', async () => {
    await expect(fetch('https://auth.x.test/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })).rejects.toThrow(TypeError);
  });
  expect(logs).toEqual([
    expect.stringMatching(/^error: Failed to answer POST https:\/\/auth\.x\.test\/oauth\/token for test "[^"]+" from its scenario: the form body is too large to read: it has more than \d+ fields\. The call fails/),
  ]);
});

test('the Stripe example in docs/request-bodies.md (and the README) works against the real SDK', async () => {
  // Copied from the docs: keep the two in step.
  const { harness, asTest } = await startHarness(
    defineScenarios({
      default: { name: 'Default', mocks: [] },
      declined: {
        name: 'Corporate cards are declined',
        mocks: [
          {
            method: 'POST',
            url: 'https://api.stripe.com/v1/charges',
            match: {
              body: { amount: 5000, currency: 'usd', metadata: { order_id: '7' }, receipt_email: { endsWith: '@corp.com' } },
              headers: { 'Idempotency-Key': { startsWith: 'order-7-' } },
            },
            response: { status: 402, body: { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } } },
            afterResponse: { setState: { 'declined[]': '{{body.metadata.order_id}}' } },
          },
        ],
      },
    }),
  );
  await asTest('declined', async (testId) => {
    const charge = stripe.charges.create(
      { amount: 5000, currency: 'usd', source: 'tok_visa', receipt_email: 'ada@corp.com', metadata: { order_id: '7' } },
      { idempotencyKey: 'order-7-attempt-1' },
    );
    await expect(charge).rejects.toMatchObject({ type: 'StripeCardError', code: 'card_declined', statusCode: 402 });
    expect(await harness.getState(testId)).toEqual({ declined: ['7'] });
  });
});
