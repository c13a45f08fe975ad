import type { HarnessEndpoints } from '../types.js';

/** A method a control endpoint answers; `HEAD` is answered wherever `GET` is. */
export type ControlMethod = 'GET' | 'POST' | 'DELETE';

/** When the start-up line names an endpoint: always, or only when the harness serves what it needs. */
export type RouteListing = 'always' | 'testMocks' | 'browserCalls' | 'journal';

/** One control endpoint: the `endpoints` option that names its path, and the methods it answers. */
export interface ControlRoute {
  readonly endpoint: keyof HarnessEndpoints;
  /** In the order a `405`'s `Allow` lists them. */
  readonly methods: readonly ControlMethod[];
  /** Named in the start-up line, and when; absent: not named there (the inspector has its own part of the line). */
  readonly listed?: RouteListing;
}

/**
 * The control API, one entry per endpoint. The one list that the control handler dispatches on
 * and answers `404`/`405` from, that the start-up line names and the Next.js route handlers take
 * their methods from, and that the conformance suites walk: none of them can drift from it.
 * Endpoints that share a path (`setScenario` and `getScenario` by default) are answered in this
 * order.
 */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  { endpoint: 'setScenario', methods: ['POST', 'DELETE'], listed: 'always' },
  { endpoint: 'getScenario', methods: ['GET'], listed: 'always' },
  { endpoint: 'getState', methods: ['GET', 'POST'], listed: 'always' },
  { endpoint: 'scenarios', methods: ['GET'], listed: 'always' },
  { endpoint: 'mocks', methods: ['POST', 'GET', 'DELETE'], listed: 'testMocks' },
  { endpoint: 'answer', methods: ['POST'], listed: 'browserCalls' },
  { endpoint: 'journal', methods: ['GET', 'DELETE'], listed: 'journal' },
  { endpoint: 'record', methods: ['POST', 'GET', 'DELETE'] },
  { endpoint: 'sessions', methods: ['GET'] },
  { endpoint: 'inspector', methods: ['GET'] },
];

/** Every method some control endpoint answers: what a framework's route file must export. */
export const CONTROL_METHODS: readonly ControlMethod[] = [...new Set(CONTROL_ROUTES.flatMap((route) => route.methods))];

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
