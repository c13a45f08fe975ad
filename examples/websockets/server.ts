import express from 'express';
import WebSocket from 'ws';
import { createHarness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { scenarios } from './scenarios.js';

const harness = createHarness({
  enabled: process.env.HARNESS_ENABLED === 'true', // off unless the tests start the app with it
  scenarios,
  unhandled: 'error', // a socket no socket mock answers fails instead of reaching the real feed
});
await harness.start(); // answers WebSockets (and other outgoing calls) from now on

/** The latest price of each SKU, and the feed socket that keeps it fresh. */
const prices = new Map<string, number>();
const feeds = new Map<string, WebSocket>();

function watch(sku: string): void {
  if (feeds.has(sku)) return;
  // Unchanged app code: the harness answers this socket from the test's scenario.
  const socket = new WebSocket('wss://prices.example.com/v1/stream');
  feeds.set(sku, socket);
  socket.on('open', () => socket.send(JSON.stringify({ type: 'subscribe', sku })));
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { type: string; sku?: string; price?: number };
    if (message.type === 'price' && message.sku === sku) prices.set(sku, message.price!);
  });
  socket.on('error', (error) => console.error(`price feed: ${error.message}`));
  socket.on('close', (code) => {
    feeds.delete(sku);
    if (code !== 1000) setTimeout(() => watch(sku), 500); // dropped or restarted: reconnect
  });
}

const app = express();
app.use(harnessMiddleware(harness));

app.get('/', (_req, res) => {
  res.send('ok'); // a page to poll: Playwright's webServer.url waits for a 200 here
});

app.get('/price/:sku', (req, res) => {
  const { sku } = req.params;
  watch(sku); // opened while this request runs: the socket is this request's test's, for its whole life
  const price = prices.get(sku);
  // The page reloads every second, so a new price shows up on its own.
  res.send(`<meta http-equiv="refresh" content="1"><p>${sku}: ${price ?? 'waiting for the feed'}</p>`);
});

const port = Number(process.env.PORT ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`Listening on http://127.0.0.1:${port}`));
