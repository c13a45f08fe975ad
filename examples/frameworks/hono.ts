import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { createHarness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/hono';
import { scenarios } from './scenarios.js';

const harness = createHarness({
  enabled: process.env.HARNESS_ENABLED === 'true',
  scenarios,
  unhandled: 'error',
});
await harness.start();

const app = new Hono();
app.use(harnessMiddleware(harness)); // first, on the root app

app.get('/', (c) => c.text('ok'));

app.get('/profile/:login', async (c) => {
  const response = await fetch(`https://api.github.com/users/${c.req.param('login')}`);
  return c.json(await response.json(), response.status as ContentfulStatusCode);
});

const port = Number(process.env.PORT ?? 3000);
serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => console.log(`Listening on http://127.0.0.1:${port}`));
