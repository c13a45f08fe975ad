/**
 * @module
 * Hono adapter: `app.use(harnessMiddleware(harness))`.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Harness } from '../core/create-harness.js';

/**
 * The control request as the core reads it. Hono hands us a Fetch `Request` already; only when
 * an earlier middleware has read its body (a used stream cannot be read again) is it rebuilt
 * from Hono's body cache, which keeps what `c.req.json()`, `c.req.text()` and the like read.
 */
async function toControlRequest(c: Context): Promise<Request> {
  const { raw } = c.req;
  if (!raw.bodyUsed) return raw;
  return new Request(raw.url, { method: raw.method, headers: raw.headers, body: await c.req.arrayBuffer() });
}

/**
 * Hono middleware that answers the control endpoints and runs every other request as its test
 * (the `x-harness-test-id` header), so the app's outgoing calls get that test's mocks. Only a
 * control request's body is read; every other request reaches the app unread.
 *
 * @example
 * const app = new Hono();
 * app.use(harnessMiddleware(harness));
 * app.get('/profile', async (c) => c.json(await (await fetch(PROFILE_API)).json()));
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/hono.md
 */
export function harnessMiddleware(harness: Harness): MiddlewareHandler {
  if (!harness.enabled) return (_c, next) => next();
  return async (c, next) => {
    // c.req.path is the full path even in a sub-app mounted with app.route(): control paths are absolute.
    if (harness.isControlPath(c.req.path)) {
      const response = await harness.handle(await toControlRequest(c));
      if (response !== null) return response;
    }
    await harness.run(harness.testIdFrom(c.req.raw.headers), next);
  };
}
