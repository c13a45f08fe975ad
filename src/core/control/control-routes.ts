import type { HarnessEndpoints } from '../types.js';

/** A method a control endpoint answers; `HEAD` is answered wherever `GET` is. */
export type ControlMethod = 'GET' | 'POST' | 'DELETE';

/**
 * How the start-up line names an endpoint when its part is on: among the control endpoints, as
 * the page to open in a browser (the inspector), or not at all.
 */
export type RouteListing = 'when-on' | 'page' | 'never';

/**
 * Who may call an endpoint: `guarded` ones answer only a caller with the credentials of
 * `access` and from an allowed Host and site (decisions/access-control.md); the one `open` page
 * holds no data and is served to anyone, so that it can ask for the token.
 */
export type RouteAccess = 'guarded' | 'open';

/** The most an endpoint reads of a request body: `limits.maxBodyBytes`, or nothing (the body is dropped unread). */
export type RouteBodyLimit = 'maxBodyBytes' | 'none';

/** One control endpoint, as its part declares it. */
export interface ControlRoute {
  /** The `endpoints` option that names its path. */
  readonly endpoint: keyof HarnessEndpoints;
  /** In the order a `405`'s `Allow` lists them. */
  readonly methods: readonly ControlMethod[];
  readonly listed: RouteListing;
  readonly access: RouteAccess;
  readonly bodyLimit: RouteBodyLimit;
}

/** Every method some route answers: what a framework's route file must export. */
export function methodsOf(routes: readonly ControlRoute[]): ControlMethod[] {
  return [...new Set(routes.flatMap((route) => route.methods))];
}

/**
 * The paths a route answers on. The inspector answers with and without its trailing slash:
 * Next.js redirects `/__harness__/` to `/__harness__`.
 */
export function routePaths(route: ControlRoute, endpoints: Readonly<Required<HarnessEndpoints>>): string[] {
  const path = endpoints[route.endpoint];
  if (route.endpoint !== 'inspector') return [path];
  return [path, path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : `${path}/`];
}

/** `method` as a route reads it: `HEAD` is answered as `GET`. */
export function routeMethod(method: string): string {
  return method === 'HEAD' ? 'GET' : method;
}
