import { defineScenarios } from 'scenario-harness';

const PAYMENT_INTENTS = 'https://api.stripe.com/v1/payment_intents';

export const scenarios = defineScenarios({
  default: {
    name: 'Payments go through',
    mocks: [
      {
        method: 'POST',
        url: PAYMENT_INTENTS,
        // The SDK sends a form body (amount=2500&currency=eur&metadata[order_id]=7): brackets
        // nest, and the number 2500 matches the text "2500".
        match: { body: { amount: 2500, currency: 'eur', metadata: { order_id: { regex: { source: '^[0-9]+$' } } } } },
        response: {
          body: { id: 'pi_{{body.metadata.order_id}}', object: 'payment_intent', amount: 2500, currency: 'eur', status: 'succeeded' },
        },
        afterResponse: { setState: { 'paid[]': '{{body.metadata.order_id}}' } },
      },
    ],
  },
  cardDeclined: {
    name: 'The card is declined',
    mocks: [
      {
        method: 'POST',
        url: PAYMENT_INTENTS,
        // `type` picks the SDK's error class: card_error -> StripeCardError.
        response: {
          status: 402,
          body: { error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' } },
        },
      },
    ],
  },
});
