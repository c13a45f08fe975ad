import { defineScenarios } from 'scenario-harness';

/** The two external APIs the shop calls. */
export const USERS_API = 'https://users.example.test';
export const PAYMENTS_API = 'https://payments.example.test';
/** Called by the page itself (the /stores page), not by the shop's server. */
export const MAPS_API = 'https://maps.example.test';
export const FLAGS_API = 'https://flags.example.test';
/** No scenario mocks it: under unhandled 'error' the browser's call to it is stopped. */
export const WEATHER_API = 'https://weather.example.test';

const charge = { method: 'POST', url: `${PAYMENTS_API}/v1/charges` } as const;
/** Every accepted charge is remembered in the test's state: the debug endpoint shows it. */
const rememberCharge = { setState: { 'cart.lastAmount': '{{body.amount}}', 'charges[]': '{{body}}' } };

export const shopScenarios = defineScenarios({
  default: {
    name: 'Happy path',
    mocks: [
      { method: 'GET', url: `${USERS_API}/me`, response: { body: { name: 'Ada Lovelace', tier: 'standard' } } },
      { ...charge, response: { status: 201, body: { id: 'ch_happy', status: 'succeeded', amount: '{{body.amount}}' } }, afterResponse: rememberCharge },
      { method: 'GET', url: `${PAYMENTS_API}/v1/orders/:id`, response: { body: { id: '{{params.id}}', status: 'delivered' } } },
      { method: 'GET', url: `${MAPS_API}/v1/geocode`, response: { body: { city: '{{query.q}}', lat: 48.86, lng: 2.35 } } },
      { method: 'POST', url: `${FLAGS_API}/v1/evaluate`, response: { headers: { 'x-flags-version': '7' }, body: { newCheckout: true } } },
    ],
  },
  premium: {
    name: 'Premium user',
    mocks: [{ method: 'GET', url: `${USERS_API}/me`, response: { body: { name: 'Grace Hopper', tier: 'premium' } } }],
    variants: {
      gold: { mocks: [{ method: 'GET', url: `${USERS_API}/me`, response: { body: { name: 'Grace Hopper', tier: 'gold' } } }] },
    },
  },
  paymentDeclined: {
    name: 'Payment declined',
    mocks: [
      { ...charge, response: { status: 402, body: { error: { code: 'card_declined', message: 'Your card was declined.' } } } },
      // A big order is declined for a different reason: more criteria beat fewer.
      { ...charge, match: { body: { amount: { regex: { source: '^\\d{5,}$' } } } }, response: { status: 402, body: { error: { code: 'amount_too_large', message: 'Amount over the card limit.' } } } },
    ],
  },
  slowNetwork: {
    name: 'Slow network',
    mocks: [
      { method: 'GET', url: `${USERS_API}/me`, response: { delay: 1500, body: { name: 'Ada Lovelace (slowly)', tier: 'standard' } } },
      { ...charge, response: { delay: 1500, status: 201, body: { id: 'ch_slow', status: 'succeeded' } }, afterResponse: rememberCharge },
    ],
  },
  usersDown: {
    name: 'User API unreachable',
    mocks: [{ method: 'GET', url: `${USERS_API}/me`, response: { error: 'network' } }],
  },
  orderPolling: {
    name: 'Order that ships while you watch',
    mocks: [
      {
        method: 'GET',
        url: `${PAYMENTS_API}/v1/orders/:id`,
        sequence: {
          responses: [
            { body: { id: '{{params.id}}', status: 'processing' } },
            { body: { id: '{{params.id}}', status: 'shipped' } },
            { body: { id: '{{params.id}}', status: 'delivered' } },
          ],
          repeat: 'last',
        },
        afterResponse: { setState: { 'orders.polls[]': '{{params.id}}' } },
      },
    ],
  },
});
