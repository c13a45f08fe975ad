/**
 * `npm run demo`: the shop with the harness enabled, and the curl commands that show it working.
 * Everything runs offline: the two external APIs are answered from examples/shop/scenarios.ts.
 */
import { createHarness } from 'scenario-harness';
import { createShopApp } from './app.js';
import { shopScenarios } from './scenarios.js';

const port = Number(process.env.PORT ?? 3000);
const harness = createHarness({ enabled: process.env.HARNESS_ENABLED !== 'false', scenarios: shopScenarios, unhandled: 'error' });
await harness.start();

const server = createShopApp(harness).listen(port, '127.0.0.1', () => {
  const base = `http://127.0.0.1:${port}`;
  const h = `-H 'x-harness-test-id: demo-1'`;
  console.log(`Demo shop on ${base}  (scenarios: ${Object.keys(shopScenarios).join(', ')})

Try it (a second terminal):

  # 1. The happy path: the user API answers Ada, a standard member
  curl -s ${h} ${base}/api/me

  # 2. Switch test "demo-1" to the premium scenario, gold variant, and ask again
  curl -s -X POST ${h} -H 'content-type: application/json' -d '{"scenario":"premium","variant":"gold"}' ${base}/__scenario__
  curl -s ${h} ${base}/api/me

  # 3. Other tests are untouched: a different test ID still gets the happy path
  curl -s -H 'x-harness-test-id: demo-2' ${base}/api/me

  # 4. Which scenario is active for demo-1?
  curl -s ${h} ${base}/__scenario__

  # 5. Payment declined: the checkout form now fails
  curl -s -X POST ${h} -H 'content-type: application/json' -d '{"scenario":"paymentDeclined"}' ${base}/__scenario__
  curl -s ${h} -d amount=2500 ${base}/checkout | grep payment-result

  # 6. An order that polls: processing, shipped, delivered (a sequence)
  curl -s -X POST ${h} -H 'content-type: application/json' -d '{"scenario":"orderPolling"}' ${base}/__scenario__
  for i in 1 2 3; do curl -s ${h} ${base}/orders/1001 | grep -o 'data-testid="order-status">[a-z]*'; done

  # 7. What the mocks wrote into demo-1's state
  curl -s ${h} ${base}/__harness__/state

  # 8. Back to the happy path, then buy something and see the state
  curl -s -X POST ${h} -H 'content-type: application/json' -d '{"scenario":"default"}' ${base}/__scenario__
  curl -s ${h} -d amount=4200 ${base}/checkout | grep payment-result
  curl -s ${h} ${base}/__harness__/state

Open ${base}/ in a browser too (no header: the default scenario). Ctrl+C stops the demo.`);
});

const shutdown = () => server.close(() => void harness.stop().then(() => process.exit(0)));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
