import Koa from 'koa';
import { createHarness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/koa';
import { scenarios } from './scenarios.js';

const harness = createHarness({
  enabled: process.env.HARNESS_ENABLED === 'true',
  scenarios,
  unhandled: 'error',
});
await harness.start();

const app = new Koa();
app.use(harnessMiddleware(harness)); // first: before your body parser and routes

app.use(async (ctx) => {
  if (ctx.path === '/') {
    ctx.body = 'ok';
    return;
  }
  const login = /^\/profile\/([^/]+)$/.exec(ctx.path)?.[1];
  if (login === undefined) return; // Koa answers 404
  const response = await fetch(`https://api.github.com/users/${login}`);
  ctx.status = response.status;
  ctx.body = await response.json();
});

const port = Number(process.env.PORT ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`Listening on http://127.0.0.1:${port}`));
