/**
 * The subprotocols the page offers reach the app (issue 41, item 4): a socket mock with
 * `protocol` answers the page's socket that offers it, as it answers the app's own clients, and
 * one that does not offer it gets the scenario's socket mock instead.
 */
import { FEED } from '../../../examples/live-prices/scenarios.js';
import { expect, test } from '../../../examples/live-prices/tests/fixtures.js';

test.use({ harnessBrowser: true });

test("a socket mock with a protocol answers the page's socket that offers it", async ({ page, harness }) => {
  await harness.useSockets({ url: FEED, protocol: 'prices.v2', onConnect: [{ send: { json: { type: 'price', sku: 'book', price: 2 } } }] });
  await page.goto('/');
  const first = (protocols: string[]) =>
    page.evaluate(
      ([url, offered]) =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(url as string, offered as string[]);
          socket.addEventListener('message', (event) => resolve(String(event.data)), { once: true });
          socket.addEventListener('open', () => socket.send(JSON.stringify({ type: 'subscribe', sku: 'pen' })), { once: true });
        }),
      [FEED, protocols] as const,
    );
  expect(JSON.parse(await first(['prices.v2']))).toEqual({ type: 'price', sku: 'book', price: 2 });
  // No offer: the scenario's socket mock answers the subscribe instead.
  expect(JSON.parse(await first([]))).toEqual({ type: 'price', sku: 'pen', price: 10 });
  const opened = (await harness.calls({ url: FEED })).filter((entry) => entry.kind === 'socket.open' && entry.side === 'browser');
  expect(opened.map((entry) => entry.layer)).toContain('test');
});
