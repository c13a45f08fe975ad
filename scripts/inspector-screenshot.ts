// Takes docs/images/inspector.png: the demo shop with a few tests' traffic, the inspector open on
// one of them. Re-run it when the page changes:
//
//   node --import tsx scripts/inspector-screenshot.ts
//
// Debian's chromium (PLAYWRIGHT_CHROMIUM_PATH, default /usr/bin/chromium); everything stays on loopback.
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { createHarness, TEST_ID_HEADER } from 'scenario-harness';
import { createShopApp } from '../examples/shop/app.js';
import { PAYMENTS_API, shopScenarios } from '../examples/shop/scenarios.js';

const harness = createHarness({ enabled: true, scenarios: shopScenarios, unhandled: 'error', announce: false });
await harness.start();
const server = createShopApp(harness).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const as = (testId: string) => ({ [TEST_ID_HEADER]: testId });
const pay = (testId: string, amount: number) =>
  fetch(`${base}/checkout`, { method: 'POST', headers: { ...as(testId), 'content-type': 'application/x-www-form-urlencoded' }, body: `amount=${amount}` });

const [declined, premium, polling, happy] = ['checkout-declined-r0-1f3a9c2e', 'premium-badge-r0-77b1d0aa', 'order-polling-r0-5c9e21f4', 'home-happy-path-r0-0a4be913'];
await harness.switchScenario(happy, 'default');
await fetch(`${base}/`, { headers: as(happy) });
await pay(happy, 4200);
await harness.switchScenario(polling, 'orderPolling');
for (let i = 0; i < 3; i++) await fetch(`${base}/orders/1001`, { headers: as(polling) });
await harness.switchScenario(premium, 'premium', 'gold');
await fetch(`${base}/`, { headers: as(premium) });
await harness.switchScenario(declined, 'paymentDeclined');
await fetch(`${base}/`, { headers: as(declined) });
await pay(declined, 2500);
await pay(declined, 125000);
// What an app's refund code would send, with no refund mock anywhere: unanswered, with the closest mock URL.
await harness.run(declined, () => fetch(`${PAYMENTS_API}/v1/refunds`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"charge":"ch_1"}' })).catch(() => {});

const browser = await chromium.launch({
  executablePath: process.env.PLAYWRIGHT_CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 960 } });
  await page.goto(`${base}/__harness__/#test=${declined}`);
  const calls = page.locator('#journal tr.call');
  await calls.nth(3).waitFor();
  await page.locator('#sessions li').nth(3).waitFor();
  // The unanswered call, opened: its near misses in full, what was sent.
  await calls.nth(3).click();
  await page.locator('tr.details').waitFor();
  const target = fileURLToPath(new URL('../docs/images/inspector.png', import.meta.url));
  await page.screenshot({ path: target });
  console.log(`wrote ${target}`);
} finally {
  await browser.close();
  server.close();
  await harness.stop();
}
