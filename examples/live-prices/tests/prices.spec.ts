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

test('the page reconnects when the feed restarts, and the new socket gets the next price', async ({ page, harness }) => {
  await page.goto('/');
  await expect(page.getByTestId('live-price')).toHaveText('10');
  await harness.closeSocket(FEED, 1012, 'restarting'); // 1012: Service Restart, with a close frame
  // The journal has each socket's life: wait for the page's second one to open.
  await expect.poll(async () => (await harness.calls({ url: FEED })).filter((entry) => entry.kind === 'socket.open' && entry.side === 'browser').length).toBe(2);
  await harness.sendToSocket(FEED, { json: { type: 'price', sku: 'book', price: 13 } });
  await expect(page.getByTestId('live-price')).toHaveText('13');
  await expect(page.getByRole('status')).toHaveText('live');
});

test('the page reconnects when the feed drops the connection', async ({ page, harness }) => {
  // This test's own feed sends one price, then drops the connection without a close frame.
  await harness.useSockets({
    url: FEED,
    on: [{ match: { json: { type: 'subscribe' } }, steps: [{ send: { json: { type: 'price', sku: '{{body.sku}}', price: 11 } } }, { error: 'the feed went away' }] }],
  });
  await page.goto('/');
  await expect(page.getByTestId('live-price')).toHaveText('11');
  const dropped = async () => (await harness.calls({ url: FEED })).filter((entry) => entry.kind === 'socket.close' && entry.side === 'browser');
  await expect.poll(async () => (await dropped())[0]?.socket?.closedBy).toBe('error');
  await harness.resetMocks(); // the page's next socket gets the scenario's feed, which stays up
  await expect(page.getByTestId('live-price')).toHaveText('10');
  await expect(page.getByRole('status')).toHaveText('live');
});

test('what went over the feed, from the journal', async ({ page, harness }) => {
  await page.goto('/');
  // Waits until a subscribe (the server's or the page's) went out, and returns its journal entry.
  const subscribe = await harness.waitForFrame(FEED, { json: { type: 'subscribe', sku: 'book' } }, { direction: 'sent' });
  expect(subscribe.kind).toBe('socket.frame');
  await expect(page.getByTestId('live-price')).toHaveText('10');
  await harness.sendToSocket(FEED, { json: { type: 'price', sku: 'book', price: 14 } });
  await harness.waitForFrame(FEED, { json: { type: 'price', price: 14 } }, { direction: 'received' });
  await expect(page.getByTestId('live-price')).toHaveText('14');
  await harness.expectSent(FEED, { json: { type: 'unsubscribe' } }, { times: 0 });
});

test('a closed market, for this test only', async ({ page, harness }) => {
  await harness.switchScenario('marketClosed');
  await page.goto('/');
  await expect(page.getByTestId('quote')).toHaveText('market closed');
  await expect(page.getByRole('status')).toHaveText('market closed');
});
