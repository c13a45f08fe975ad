/**
 * Two Playwright workers on the same socket URL with different scenarios at once, with no
 * crosstalk (issue 41, item 8): one test's feed is open, the other's is the closed market; both
 * pages are open at the same time (they meet through a third test ID's state, a barrier the
 * harness keeps), then each pushes a price to its own socket. Each page shows its own, and the
 * journal of each test holds its own sockets only, the page's marked `side: 'browser'`.
 */
import { createHarnessClient } from 'scenario-harness/client';
import { FEED } from '../../../examples/live-prices/scenarios.js';
import { expect, test } from '../../../examples/live-prices/tests/fixtures.js';

test.use({ harnessBrowser: true });
test.describe.configure({ mode: 'parallel' });

const PRICES = { left: 21, right: 34 } as const;
type Side = keyof typeof PRICES;

for (const [side, other] of [['left', 'right'], ['right', 'left']] as [Side, Side][]) {
  test(`the ${side} test's socket gets only its own pushes`, async ({ page, harness, baseURL }, testInfo) => {
    test.skip(testInfo.config.workers < 2, 'needs two workers to hold two sockets at once');
    // The right test answers from its own socket mock (per test), laid over the scenario's.
    if (side === 'right') await harness.useSockets({ url: FEED, on: [{ match: { json: { type: 'subscribe' } }, steps: [{ send: { json: { type: 'price', sku: 'book', price: 1 } } }] }] });
    await page.goto('/');
    await expect(page.getByTestId('live-price')).toHaveText(side === 'right' ? '1' : '10');

    const barrier = createHarnessClient({ baseURL: baseURL!, testId: `live-prices-barrier-${testInfo.repeatEachIndex}` });
    await barrier.setState({ [side]: 'open' });
    await barrier.waitForState((state) => state[other] === 'open', { timeout: 20_000 });

    await harness.sendToSocket(FEED, { json: { type: 'price', sku: 'book', price: PRICES[side] } });
    await expect(page.getByTestId('live-price')).toHaveText(String(PRICES[side]));
    // Hold the page open until the other test pushed too: its push must not reach this page.
    await barrier.setState({ [`${side}Pushed`]: true });
    await barrier.waitForState((state) => state[`${other}Pushed`] === true, { timeout: 20_000 });
    await expect(page.getByTestId('live-price')).toHaveText(String(PRICES[side]));

    const pushed = (await harness.calls({ url: FEED })).filter((entry) => entry.kind === 'socket.frame' && entry.socket?.rule === 'test');
    expect(pushed.map((entry) => [entry.side, entry.socket?.data])).toEqual([['browser', JSON.stringify({ type: 'price', sku: 'book', price: PRICES[side] })]]);
  });
}
