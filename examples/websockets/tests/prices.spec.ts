import { expect, test } from './fixtures.js';

const FEED = 'wss://prices.example.com/v1/stream';

test('shows the price the feed sends', async ({ page }) => {
  await page.goto('/price/book');
  await expect(page.getByText('book: 12.5')).toBeVisible();
});

test('shows an update the feed pushes', async ({ page, harness }) => {
  await page.goto('/price/pen');
  await expect(page.getByText('pen: 12.5')).toBeVisible();
  // A frame from "the feed" to this test's open sockets of the URL; other tests' sockets get nothing.
  await harness.sendToSocket(FEED, { json: { type: 'price', sku: 'pen', price: 13.75 } });
  await expect(page.getByText('pen: 13.75')).toBeVisible();
  await harness.expectSent(FEED, { json: { type: 'subscribe', sku: 'pen' } }, { times: 1 });
});

test('reconnects when the feed drops the connection', async ({ page, harness }) => {
  // This test's own feed sends one price, then drops the connection without a close frame (1006).
  await harness.useSockets({
    url: FEED,
    on: [
      {
        match: { json: { type: 'subscribe' } },
        steps: [{ send: { json: { type: 'price', sku: '{{body.sku}}', price: 11 } } }, { delay: 100 }, { error: 'the feed went away' }],
      },
    ],
  });
  await page.goto('/price/lamp');
  await expect(page.getByText('lamp: 11')).toBeVisible();
  await harness.resetMocks(); // the app's next connection gets the scenario's feed, which stays up
  await expect(page.getByText('lamp: 12.5')).toBeVisible();
  const closes = (await harness.calls()).filter((entry) => entry.kind === 'socket.close');
  expect(closes[0]?.socket?.closedBy).toBe('error');
});

test('reconnects when the feed restarts', async ({ page, harness }) => {
  await page.goto('/price/cup');
  await expect(page.getByText('cup: 12.5')).toBeVisible();
  await harness.closeSocket(FEED, 1012); // 1012: Service Restart, with a close frame
  // The app opens a new socket and subscribes again: two sockets, two subscribe frames.
  await expect.poll(async () => (await harness.calls()).filter((entry) => entry.kind === 'socket.open').length).toBe(2);
  await harness.waitForFrame(FEED, { json: { type: 'subscribe', sku: 'cup' } }, { direction: 'sent' });
  await expect.poll(async () => (await harness.calls()).filter((entry) => entry.kind === 'socket.frame' && entry.socket?.direction === 'sent').length).toBe(2);
});
