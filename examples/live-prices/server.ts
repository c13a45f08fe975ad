import { fileURLToPath } from 'node:url';
import express from 'express';
import { createHarness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import WebSocket from 'ws';
import { FEED, scenarios } from './scenarios.js';

const harness = createHarness({
  enabled: process.env.HARNESS_ENABLED === 'true', // off unless the tests start the app with it
  scenarios,
  unhandled: 'error', // a socket no mock answers is refused instead of reaching the real feed
});
await harness.start();

/** The server's own look at the feed: subscribe to one product and take the first price that comes. */
function quote(sku: string): Promise<{ sku: string; price: number } | { closed: true }> {
  return new Promise((resolve, reject) => {
    const feed = new WebSocket(FEED);
    feed.on('open', () => feed.send(JSON.stringify({ type: 'subscribe', sku })));
    feed.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; sku?: string; price?: number };
      if (message.type === 'closed') resolve({ closed: true });
      if (message.type === 'price' && message.sku === sku) resolve({ sku, price: message.price! });
      feed.close();
    });
    feed.on('error', reject);
  });
}

const app = express();
app.use(harnessMiddleware(harness));
app.get('/', (_req, res) => res.sendFile(fileURLToPath(new URL('./index.html', import.meta.url))));
app.get('/api/quote/:sku', async (req, res) => {
  try {
    res.json(await quote(req.params.sku));
  } catch (error) {
    res.status(502).json({ error: (error as Error).message });
  }
});

const port = Number(process.env.PORT ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`Listening on http://127.0.0.1:${port}`));
