import { defineScenarios } from 'scenario-harness';

export const scenarios = defineScenarios({
  default: {
    name: 'The price feed answers',
    mocks: [],
    sockets: [
      {
        id: 'prices',
        url: 'wss://prices.example.com/v1/stream',
        // As soon as the app's socket opens.
        onConnect: [{ send: { json: { type: 'welcome' } } }],
        on: [
          {
            // A frame the app sends that contains this JSON subset...
            match: { json: { type: 'subscribe' } },
            // ...gets a price for the SKU it named: {{body.sku}} reads the app's frame.
            steps: [{ send: { json: { type: 'price', sku: '{{body.sku}}', price: 12.5 } } }],
          },
        ],
      },
    ],
  },
});
