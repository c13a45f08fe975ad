/**
 * @module
 * `scenario-harness/next` under the `edge-light` condition: what `next dev --webpack` compiles
 * when it builds `instrumentation.ts` (or a proxy, a route) for the edge runtime. The harness
 * works on the Node.js runtime only (it patches Node's fetch and http), so here every export
 * is an inert stand-in with the same shape, importing nothing from Node: compiling for the edge
 * succeeds, and an app whose code does run on the edge behaves as with the harness disabled.
 */
import { DEFAULT_ENDPOINTS, DEFAULT_TEST_ID, TEST_ID_HEADER } from '../core/constants.js';
import type { Harness } from '../core/create-harness.js';
import { HarnessError } from '../core/errors.js';
import { readTestId } from '../core/read-test-id.js';
import type { HarnessOptions, ScenarioMap } from '../core/types.js';
import { NEXT_VERSION_ENV, nextMiddlewareProblem, NODE_MIDDLEWARE_SINCE } from './next-middleware-problem.js';

const ON_NODE = `scenario-harness runs on Next.js's Node.js runtime only: start it from instrumentation.ts when process.env.NEXT_RUNTIME === 'nodejs', and give a proxy or route that uses it export const runtime = 'nodejs' (Next.js 15 middleware, from ${NODE_MIDDLEWARE_SINCE}: export const config = { runtime: 'nodejs' })`;

/**
 * Why the harness is off here: on Next.js 15.0 to 15.4, where middleware cannot leave the edge
 * runtime, which release runs and which one it takes.
 * @note The Node.js side (`registerHarness`, from instrumentation.ts) leaves the version in the
 * environment: Next copies `process.env` into the edge sandbox, and nothing else tells the edge
 * runtime which Next.js runs it.
 */
function whyOff(): string {
  const version = typeof process === 'undefined' ? undefined : process.env?.[NEXT_VERSION_ENV];
  return nextMiddlewareProblem(version) ?? ON_NODE;
}

let warned = false;

function notOnTheEdge(what: string): never {
  throw new HarnessError('INVALID_OPTIONS', `Failed to ${what} on the edge runtime: ${whyOff()}.`);
}

/** A harness that is off, with the shape of one: what the edge runtime gets. */
export function createNextHarness<const S extends ScenarioMap>(options: HarnessOptions<S>): Harness<S> {
  if (options?.enabled === true && !warned) {
    warned = true;
    console.warn(`[scenario-harness] off on the edge runtime: ${whyOff()}.`);
  }
  return {
    enabled: false,
    endpoints: Object.freeze({ ...DEFAULT_ENDPOINTS, ...options?.endpoints }),
    start: async () => {},
    stop: async () => {},
    handle: async () => null,
    isControlPath: () => false,
    run: (_testId, fn) => fn(),
    testIdFrom: (headers) => readTestId(headers),
    currentTestId: () => DEFAULT_TEST_ID,
    forwardHeaders: () => ({ [TEST_ID_HEADER]: DEFAULT_TEST_ID }),
    switchScenario: async () => notOnTheEdge('switch a scenario'),
    getActiveScenario: async () => notOnTheEdge('read the active scenario'),
    getState: async () => notOnTheEdge('read the state'),
    endTest: async () => notOnTheEdge('end a test'),
    listScenarios: () => [],
    getCalls: async () => notOnTheEdge('read the journal'),
    clearCalls: async () => notOnTheEdge('clear the journal'),
    useMocks: async () => notOnTheEdge("add a test's mocks"),
    resetMocks: async () => notOnTheEdge("remove a test's mocks"),
    setState: async () => notOnTheEdge("set a test's state"),
  };
}

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
