import express, { type Express } from 'express';
import type { Harness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { checkoutPage, homePage, orderPage, storesPage } from './pages.js';
import { FLAGS_API, MAPS_API, PAYMENTS_API, USERS_API, WEATHER_API } from './scenarios.js';

/**
 * The demo shop: an ordinary Express app that calls two external APIs. The harness is the only
 * test-specific line; the routes know nothing about tests or scenarios.
 */
export function createShopApp(harness: Harness): Express {
  const app = express();
  app.use(express.urlencoded({ extended: false }));
  app.use(express.json());
  app.use(harnessMiddleware(harness));

  app.get('/', async (_req, res) => {
    try {
      const response = await fetch(`${USERS_API}/me`);
      res.send(homePage((await response.json()) as { name: string; tier: string }));
    } catch {
      res.status(502).send(homePage({ error: 'The user service is unreachable. Try again later.' }));
    }
  });

  app.get('/checkout', (_req, res) => void res.send(checkoutPage()));
  app.post('/checkout', async (req, res) => {
    const amount = Number((req.body as { amount?: string }).amount ?? 0);
    const response = await fetch(`${PAYMENTS_API}/v1/charges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount, currency: 'eur' }),
    });
    const charge = (await response.json()) as { id?: string; error?: { message: string } };
    const result = response.ok ? { ok: true, message: `Payment accepted (${charge.id})` } : { ok: false, message: charge.error?.message ?? 'Payment failed' };
    res.status(response.ok ? 200 : 402).send(checkoutPage(result));
  });

  app.get('/orders/:id', async (req, res) => {
    const response = await fetch(`${PAYMENTS_API}/v1/orders/${encodeURIComponent(req.params.id)}`);
    res.send(orderPage((await response.json()) as { id: string; status: string }));
  });

  // A page that calls third parties from the browser; the tests answer them with harnessBrowser.
  app.get('/stores', (_req, res) => void res.send(storesPage({ maps: MAPS_API, flags: FLAGS_API, users: USERS_API, weather: WEATHER_API })));

  // The same data as JSON, for curl.
  app.get('/api/me', async (_req, res) => void res.json(await (await fetch(`${USERS_API}/me`)).json()));

  return app;
}
