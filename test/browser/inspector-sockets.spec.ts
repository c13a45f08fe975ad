import { test as plainTest, type Page } from '@playwright/test';
import { journalUntil, newKey, startSocketApp } from '../sockets/socket-app.js';
import { test, expect } from './fixtures.js';

// The inspector shows a test's sockets on its timeline (issue 41, item 5), in Debian's chromium:
// each connection one row beside the HTTP calls, its open, frames and close when opened. The
// app's sockets: an Express app with the harness (test/sockets/socket-app.ts) opens real ws
// sockets per test, in this worker (a plain Playwright test: the suite's fixture would send its
// own test ID from every page). The page's own socket: the shop's page with harnessBrowser.

/** Page errors, console errors and requests to other origins: the page must have none. */
function watchProblems(page: Page, origin: string): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 404/.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  page.on('request', (request) => {
    if (new URL(request.url()).origin !== new URL(origin).origin) problems.push(`request elsewhere: ${request.url()}`);
  });
  return problems;
}

const FEED = 'wss://feed.example.test/v1/stream';
const scenarios = {
  default: { name: 'Default', mocks: [] },
  feed: {
    name: 'A price feed',
    mocks: [],
    sockets: [
      {
        id: 'prices',
        url: FEED,
        protocol: 'feed.v1',
        onConnect: [{ send: { json: { type: 'welcome' } } }],
        on: [{ match: { json: { type: 'subscribe' } }, steps: [{ send: { json: { type: 'price', price: 12 } } }] }],
      },
    ],
  },
};

plainTest("the app's sockets: one row per connection, collapsed; opened, its timeline with arrows, data, cut, rules and near misses, the close; the last 50 of hundreds until 'show all'", async ({ browser }, testInfo) => {
  const app = await startSocketApp(scenarios, { journal: { maxBodyBytes: 64, maxEntries: 1000 } });
  try {
    const harness = await app.client('feed');
    const first = newKey();
    await app.call(harness, 'open', { key: first, client: 'ws', url: FEED, protocols: ['feed.v1'] });
    const hostile = '<img src=x onerror="document.title=1">';
    await app.call(harness, 'send', { key: first, frames: [{ text: '{"type":"subscribe","sku":"book"}' }, { text: 'x'.repeat(100) }, { binary: 'AQID' }, { text: hostile }] });
    await app.call(harness, 'wait', { key: first, count: 2 });
    await harness.sendToSocket(FEED, { json: { type: 'pushed' } });
    await app.call(harness, 'wait', { key: first, count: 3 });
    await app.call(harness, 'close', { key: first, code: 4002, reason: 'app is done' });
    const second = newKey();
    await app.call(harness, 'open', { key: second, client: 'ws', url: FEED, protocols: ['feed.v1'] });
    await app.call(harness, 'send', { key: second, frames: Array.from({ length: 120 }, (_, n) => ({ text: `tick ${n}` })) });
    const journal = await journalUntil(harness, (entries) => entries.filter((entry) => entry.kind === 'socket.frame').length === 7 + 121);
    const [one, two] = journal.filter((entry) => entry.kind === 'socket.open').map((entry) => entry.socket!.connection);

    const context = await browser.newContext({ baseURL: app.origin, viewport: { width: 1280, height: 900 } });
    const inspector = await context.newPage();
    const problems = watchProblems(inspector, app.origin);
    await inspector.goto(`/__harness__/#test=${encodeURIComponent(harness.testId)}`);
    await expect(inspector.locator('#call-count')).toHaveText('0 calls · 2 sockets, 128 frames');
    const rows = inspector.locator('#journal tr.socket');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toHaveAttribute('data-connection', one!);
    await expect(rows.first()).toContainText(`WS${FEED}closed 4002 · 7 frames (4 →, 3 ←) · by prices · scenario3 frames from the app matched no rule`);
    await expect(rows.nth(1)).toContainText(`WS${FEED}open · 121 frames (120 →, 1 ←) · by prices · scenario120 frames from the app matched no rule`);
    await expect(rows.nth(1).locator('td').last()).toHaveText('open');
    // A card left out (this test has no mocks of its own) leaves no trace.
    await expect(inspector.locator('#detail')).not.toContainText('null');
    // Collapsed: no frame is in the page until a connection is opened.
    await expect(inspector.locator('table.frames')).toHaveCount(0);

    await rows.first().click();
    const details = inspector.locator('tr.details').first();
    await expect(details).toContainText('protocolfeed.v1');
    await expect(details).toContainText('sideserver (the app opened it)');
    await expect(details).toContainText('Handshake headers');
    const timeline = inspector.locator(`table.frames[data-connection="${one}"]`);
    await expect(timeline.locator('tr.frame')).toHaveCount(7);
    await expect(timeline.locator('tr.socket-event.open')).toContainText(`open${FEED} · protocol feed.v1by prices · scenario`);
    const frame = (text: string) => timeline.locator('tr.frame', { hasText: text });
    await expect(frame('"sku": "book"')).toHaveClass(/\bsent\b/);
    await expect(frame('"sku": "book"').locator('td.dir')).toHaveText('→');
    await expect(frame('"sku": "book"').locator('td.dir')).toHaveAttribute('title', 'sent by the app');
    await expect(frame('"sku": "book"')).toContainText('text · 33 bytes · JSON');
    await expect(frame('"sku": "book"').locator('pre')).toHaveText('{\n  "type": "subscribe",\n  "sku": "book"\n}');
    await expect(frame('"sku": "book"')).toContainText('answered by on[0]');
    await expect(frame('"type": "welcome"').locator('td.dir')).toHaveText('←');
    await expect(frame('"type": "welcome"')).toContainText('sent by onConnect');
    await expect(frame('"price": 12')).toContainText('sent by on[0]');
    await expect(frame('"type": "pushed"')).toContainText('pushed by the test');
    await expect(frame('xxxx')).toContainText('text · 100 bytes cut');
    await expect(frame('xxxx')).toContainText('cut: the journal kept the first 64 of 100 bytes (journal.maxBodyBytes)');
    await expect(frame('xxxx').locator('td.rule')).toHaveText('no rule matchedon[0].match.json: the frame is not JSON');
    await expect(frame('base64')).toContainText('binary · 3 bytes');
    await expect(frame('base64').locator('pre')).toHaveText('binary, 3 bytes (base64 AQID)');
    // The app's markup is shown as text, never parsed: no element came of it.
    await expect(frame('onerror').locator('pre')).toHaveText(hostile);
    await expect(inspector.locator('#detail img')).toHaveCount(0);
    await expect(timeline.locator('tr.socket-event.close')).toContainText('closed 4002 “app is done” by the app');
    await timeline.screenshot({ path: testInfo.outputPath('socket-timeline.png') });

    // Hundreds of frames: the last 50, the rest behind "show all".
    await rows.nth(1).click();
    const many = inspector.locator(`table.frames[data-connection="${two}"]`);
    await expect(many.locator('tr.frame')).toHaveCount(50);
    await expect(many.locator('tr.hidden-frames')).toContainText('71 earlier frames not shown');
    await expect(many.locator('tr.frame').last()).toContainText('tick 119');
    await many.getByRole('button', { name: 'Show all 121 frames' }).click();
    await expect(many.locator('tr.frame')).toHaveCount(121);
    await expect(many.locator('tr.frame').nth(1)).toContainText('tick 0');
    // Live: a frame pushed now appears in the open timeline without a reload.
    await harness.sendToSocket(FEED, 'one more');
    await expect(many.locator('tr.frame')).toHaveCount(122);
    await expect(many.locator('tr.frame').last()).toContainText('one morepushed by the test');
    await inspector.getByRole('button', { name: 'Show the last 50 only' }).click();
    await expect(many.locator('tr.frame')).toHaveCount(50);
    // Closing the row hides its timeline again.
    await rows.nth(1).click();
    await expect(many).toHaveCount(0);
    expect(problems).toEqual([]);
    await context.close();
  } finally {
    await app.stop();
  }
});

test.describe("the page's own socket", () => {
  test.use({ harnessBrowser: true });

  test('is marked as the browser\'s, with the page as the one that sent and received', async ({ page, harness, browser, baseURL }) => {
    const url = 'wss://feed.example.test/page';
    await harness.useSockets({ id: 'page-feed', url, onConnect: [{ send: 'hi' }], on: [{ match: { text: 'ping' }, steps: [{ send: 'pong' }, { close: { code: 4000, reason: 'bye' } }] }] });
    await page.goto('/checkout');
    const seen = await page.evaluate(
      (socketUrl) =>
        new Promise<{ got: string[]; code: number; reason: string }>((resolve) => {
          const socket = new WebSocket(socketUrl);
          const got: string[] = [];
          socket.onmessage = (event) => {
            got.push(String(event.data));
            if (event.data === 'hi') socket.send('ping');
          };
          socket.onclose = (event) => resolve({ got, code: event.code, reason: event.reason });
        }),
      url,
    );
    expect(seen).toEqual({ got: ['hi', 'pong'], code: 4000, reason: 'bye' });
    await expect.poll(async () => (await harness.calls({ url })).filter((entry) => entry.kind === 'socket.close').length).toBe(1);

    const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
    const inspector = await context.newPage();
    const problems = watchProblems(inspector, baseURL!);
    await inspector.goto(`/__harness__/#test=${encodeURIComponent(harness.testId)}`);
    const row = inspector.locator('#journal tr.socket');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(`WSbrowser ${url}closed 4000 · 3 frames (1 →, 2 ←) · by page-feed · test`);
    await expect(row.locator('.chip.side')).toHaveAttribute('title', 'opened by the page in the browser, answered through the app');
    await row.click();
    await expect(inspector.locator('tr.details')).toContainText('sidebrowser (the page opened it; answered through the app)');
    const timeline = inspector.locator('table.frames');
    await expect(timeline.locator('tr.frame')).toHaveCount(3);
    await expect(timeline.locator('tr.frame', { hasText: 'ping' }).locator('td.dir')).toHaveAttribute('title', 'sent by the page');
    await expect(timeline.locator('tr.frame', { hasText: 'ping' })).toContainText('answered by on[0]');
    await expect(timeline.locator('tr.frame', { hasText: 'pong' }).locator('td.dir')).toHaveAttribute('title', 'received by the page');
    await expect(timeline.locator('tr.socket-event.close')).toContainText('closed 4000 “bye” by the socket mock');
    expect(problems).toEqual([]);
    await context.close();
  });
});
