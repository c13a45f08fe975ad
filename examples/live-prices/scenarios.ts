import { defineScenarios } from 'scenario-harness';

export const FEED = 'wss://prices.example.test/v1/stream';

export const scenarios = defineScenarios({
  default: {
    name: 'The market is open',
    mocks: [],
    sockets: [
      {
        id: 'feed',
        url: FEED,
        // A subscriber gets the price of what it subscribed to at once; updates come from the test.
        on: [{ match: { json: { type: 'subscribe' } }, steps: [{ send: { json: { type: 'price', sku: '{{body.sku}}', price: 10 } } }] }],
      },
    ],
  },
  marketClosed: {
    name: 'The market is closed',
    mocks: [],
    sockets: [{ id: 'feed', url: FEED, onConnect: [{ send: { json: { type: 'closed' } } }, { close: { code: 4000, reason: 'market closed' } }] }],
  },
});
