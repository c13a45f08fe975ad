import { FEED } from '../scenarios.js';
import { expect, test } from './fixtures.js';

// The page's own socket is answered from the test's scenario too (the fixture routes it to the app).
test.use({ harnessBrowser: true });

test('the server and the page get prices from the same scenario, and a pushed price shows at once', async ({ page, harness }) => {
  await page.goto('/');
  await expect(page.getByTestId('quote')).toHaveText('10');
  await expect(page.getByTestId('live-price')).toHaveText('10');

  await harness.sendToSocket(FEED, { json: { type: 'price', sku: 'book', price: 12 } });
  await expect(page.getByTestId('live-price')).toHaveText('12');
  // Both subscribed: the server for its quote, the page for the live price.
  await harness.expectSent(FEED, { json: { type: 'subscribe', sku: 'book' } }, { times: 2 });
});

test('the page reconnects when the feed drops, and the new socket gets the next price', async ({ page, harness }) => {
  await page.goto('/');
  await expect(page.getByTestId('live-price')).toHaveText('10');
  await harness.closeSocket(FEED, 1012, 'restarting');
  // The journal has each socket's life: wait for the page's second one to open.
  await expect.poll(async () => (await harness.calls({ url: FEED })).filter((entry) => entry.kind === 'socket.open' && entry.side === 'browser').length).toBe(2);
  await harness.sendToSocket(FEED, { json: { type: 'price', sku: 'book', price: 13 } });
  await expect(page.getByTestId('live-price')).toHaveText('13');
  await expect(page.getByRole('status')).toHaveText('live');
});

test('a closed market, for this test only', async ({ page, harness }) => {
  await harness.switchScenario('marketClosed');
  await page.goto('/');
  await expect(page.getByTestId('quote')).toHaveText('market closed');
  await expect(page.getByRole('status')).toHaveText('market closed');
});
