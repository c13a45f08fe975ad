/**
 * @module
 * `scenario-harness/next` under the `edge-light` condition: what `next dev --webpack` compiles
 * when it builds `instrumentation.ts` (or a proxy, a route) for the edge runtime. The harness
 * works on the Node.js runtime only (it patches Node's fetch and http), so here every export
 * is an inert stand-in with the same shape, importing nothing from Node: compiling for the edge
 * succeeds, and an app whose code does run on the edge behaves as with the harness disabled.
 */
import type { Harness } from '../core/create-harness.js';
import { notOnTheEdge } from '../edge/inert-harness.js';

export { createNextHarness } from '../edge/inert-harness.js';

/** Nothing to register on the edge runtime. */
export async function registerHarness(_harness: Harness): Promise<void> {}

type RouteHandler = (request: Request) => Promise<Response>;

/** Control endpoints are served on the Node.js runtime only: 404 here, as when the harness is disabled. */
export function harnessRouteHandlers(_harness: Harness): { GET: RouteHandler; POST: RouteHandler; DELETE: RouteHandler } {
  const handler: RouteHandler = async () => new Response(null, { status: 404 });
  return { GET: handler, POST: handler, DELETE: handler };
}

/** Pages Router API routes run on Node.js: this stand-in only keeps an edge compilation whole. */
export function harnessApiHandler(_harness: Harness): () => Promise<void> {
  return async () => notOnTheEdge('answer a control request from an API route');
}

/** Passes every request on to `proxy`, as a disabled harness does. */
export function harnessProxy<Req extends Request, Rest extends unknown[], Result = undefined>(
  _harness: Harness,
  proxy?: (request: Req, ...rest: Rest) => Result | Promise<Result>,
): (request: Req, ...rest: Rest) => Promise<Response | Result | undefined> {
  return async (request, ...rest) => proxy?.(request, ...rest);
}
