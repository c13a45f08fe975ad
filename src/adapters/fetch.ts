/**
 * @module
 * Fetch-style frameworks (a `Request` in, a `Response` out): one call is the whole glue in a
 * SvelteKit `handle` hook, an Astro or React Router middleware, h3, Elysia.
 */
import type { Harness } from '../core/create-harness.js';

/**
 * A control request → the harness's `Response`; any other request → `next()`, run as the test
 * its `x-harness-test-id` header (or `baggage`) names, so every outgoing call it makes gets that
 * test's mocks. Disabled, it only calls `next()`.
 *
 * @example
 * // SvelteKit, src/hooks.server.ts
 * export const handle = ({ event, resolve }) => handleRequest(harness, event.request, () => resolve(event));
 * // Astro, src/middleware.ts
 * export const onRequest = (context, next) => handleRequest(harness, context.request, next);
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/harness.md
 */
export async function handleRequest<T>(harness: Harness, request: Request, next: () => T | Promise<T>): Promise<Response | T> {
  if (typeof harness?.run !== 'function') throw new TypeError(`Expected a harness from createHarness() as the first argument of handleRequest(), instead got ${typeof harness}.`);
  if (!harness.enabled) return next();
  if (harness.isControlPath(new URL(request.url).pathname)) {
    const response = await harness.handle(request);
    if (response !== null) return response;
  }
  return harness.run(harness.testIdFrom(request.headers), next);
}
