/**
 * @module
 * Next.js adapter: one harness per process, the control endpoints as route handlers or a proxy,
 * and the test ID for every server-side call (App Router and Pages Router) with no forwarding.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Harness } from '../core/create-harness.js';
import { createHarness } from '../harness.js';
import { consoleLogger } from '../core/dev-utils.js';
import { CONTROL_METHODS } from '../harness-parts.js';
import { jsonResponse } from '../core/control/json-response.js';
import { enterTestId } from '../core/test-context.js';
import { handleNodeControlRequest, sendFetchResponse } from './_node-http.js';
import { nextBypassDataCache } from './next-bypass-data-cache.js';
import { NEXT_VERSION_ENV } from '../edge/next-middleware-problem.js';
import type { HarnessOptions, ScenarioMap } from '../core/types.js';

interface NextRegistry {
  /** What createNextHarness() returns, every time: it forwards to `current`. */
  harness?: Harness;
  /** The harness of the newest definitions; replaced when an edit changes them. */
  current?: Harness;
  /** The definitions `current` was created from, as text (see `definitionsText`). */
  definitions?: string;
  /** Whether `start()` was called: a harness that replaces `current` starts too. */
  started?: boolean;
  /** The first call's options: a harness that replaces `current` takes them, with the new scenarios. */
  options?: HarnessOptions;
  /** Every harness createNextHarness() returned, from any copy of this module. */
  created: WeakSet<Harness>;
  /** The harness whose inbound requests are scoped (set once: the subscription is for good). */
  scoping?: Harness;
}

const REGISTRY_KEY = Symbol.for('scenario-harness.next');

/**
 * @note Next.js evaluates `harness.ts` once per bundle (instrumentation, proxy, each route's
 * server chunk), so module state would give each bundle its own harness and store.
 */
function registry(): NextRegistry {
  const global = globalThis as Record<symbol, NextRegistry | undefined>;
  return (global[REGISTRY_KEY] ??= { created: new WeakSet() });
}

/**
 * Scenario definitions as text, functions and RegExps by their source, so that the same module
 * evaluated once per bundle compares equal and an edit does not. `undefined` when they cannot be
 * written out (a cycle): then they count as unchanged.
 */
function definitionsText(scenarios: ScenarioMap): string | undefined {
  try {
    return JSON.stringify(scenarios, (_key, value: unknown) => (typeof value === 'function' || value instanceof RegExp ? String(value) : value));
  } catch {
    return undefined;
  }
}

/** One harness object for the whole process that always acts as the current one, so route files imported before an edit see the edit too. */
function forwardToCurrent(state: NextRegistry): Harness {
  const current = () => state.current!;
  return new Proxy({} as Harness, {
    get(_target, key) {
      if (key === 'start') {
        return async () => {
          state.started = true;
          await current().start();
        };
      }
      const inner = current();
      const value = Reflect.get(inner, key, inner) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(inner) : value;
    },
    has: (_target, key) => Reflect.has(current(), key),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), key);
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
  });
}

/**
 * The process's one harness for a Next.js app. Next loads your harness module once per bundle:
 * every call returns the same harness, answering from the newest definitions — an edit to the
 * scenarios (`next dev`) applies without a restart, and tests switched before keep their
 * sessions. Options other than `scenarios` are read on the first call only.
 *
 * @example
 * // harness.ts
 * export const harness = createNextHarness({
 *   enabled: process.env.HARNESS_ENABLED === 'true',
 *   scenarios,
 * });
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/nextjs.md
 */
export function createNextHarness<const S extends ScenarioMap>(options: HarnessOptions<S>): Harness<S> {
  const state = registry();
  const definitions = definitionsText(options.scenarios);
  if (state.harness === undefined) {
    state.current = createHarness(options);
    state.definitions = definitions;
    state.harness = forwardToCurrent(state);
    state.created.add(state.harness);
  } else if (definitions !== undefined && definitions !== state.definitions && state.current!.enabled) {
    // An edit (next dev evaluated the module again): the new harness takes over, with the sessions
    // of the one before (createHarness adopts the store of the harness that answers).
    const { scenarios } = options;
    state.definitions = definitions;
    const before = state.current!;
    state.current = createHarness({ ...state.options!, scenarios });
    if (state.started) {
      // Once the edited harness answers, the one before is stopped: nothing references it any more.
      state.current.start().then(
        () => before.stop(),
        (error: unknown) => consoleLogger.error(`Failed to start the harness with the edited scenarios: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  }
  state.options ??= options as HarnessOptions;
  return state.harness as unknown as Harness<S>;
}

function warnIfNotTheProcessHarness(harness: Harness, where: string): void {
  if (registry().created.has(harness)) return;
  consoleLogger.warn(
    `${where} got a harness that createNextHarness() did not return, so its switches and the interception use different stores. Create the harness with createNextHarness() from "scenario-harness/next".`,
  );
}

/**
 * Start the harness from `instrumentation.ts` and give every inbound request its test ID, so
 * server components, route handlers, server actions, API routes and `getServerSideProps` make
 * their outgoing calls as that test without forwarding any header. No-op when disabled.
 *
 * @example
 * // instrumentation.ts
 * export async function register() {
 *   if (process.env.NEXT_RUNTIME !== 'nodejs') return;
 *   const { harness } = await import('./harness');
 *   await registerHarness(harness);
 * }
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/nextjs.md#how-the-test-id-reaches-your-calls
 */
export async function registerHarness(harness: Harness): Promise<void> {
  if (!harness.enabled) return;
  warnIfNotTheProcessHarness(harness, 'registerHarness()');
  // @note Next's server titles its process `next-server (v15.2.3)`; the edge runtime's stand-in
  // (next-edge.ts) reads the version from the environment, which Next copies into its sandbox,
  // to say why a proxy there cannot reach the harness on that release.
  const nextVersion = /^next-server \(v([^)\s]+)\)$/.exec(process.title)?.[1];
  if (nextVersion !== undefined) process.env[NEXT_VERSION_ENV] ??= nextVersion;
  const pristine = globalThis.fetch;
  await harness.start();
  nextBypassDataCache(pristine, globalThis.fetch);
  const state = registry();
  if (state.scoping !== undefined) return;
  state.scoping = harness;
  // @note node:http publishes this synchronously right before it emits 'request', in the same
  // execution as Next's request listener, so the test ID entered here is the context of all the
  // work that listener starts: routing, the proxy, rendering, actions, API routes.
  // https://nodejs.org/api/diagnostics_channel.html#http
  subscribe('http.server.request.start', (message) => {
    const { request } = message as { request: IncomingMessage };
    enterTestId(harness.testIdFrom(request.headers));
  });
}

type RouteHandler = (request: Request) => Promise<Response>;

/**
 * App Router route handlers for the control endpoints. Put them in
 * `app/%5F%5Fscenario%5F%5F/route.ts` and `app/%5F%5Fharness%5F%5F/[[...path]]/route.ts` (an
 * optional catch-all: every `/__harness__` path; `%5F` is `_`, and a plain `_` folder is private
 * to the App Router), or in folders at your custom paths.
 *
 * @example
 * // app/%5F%5Fscenario%5F%5F/route.ts
 * import { harness } from '../../harness';
 * export const { GET, POST, DELETE } = harnessRouteHandlers(harness);
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/nextjs.md
 */
export function harnessRouteHandlers(harness: Harness): { GET: RouteHandler; POST: RouteHandler; DELETE: RouteHandler } {
  warnIfNotTheProcessHarness(harness, 'harnessRouteHandlers()');
  const handler: RouteHandler = async (request) => {
    // @note Read first: reading `request.url` marks the route dynamic, so Next never prerenders
    // it at build time, when the harness is usually disabled.
    const { pathname } = new URL(request.url);
    if (!harness.enabled) return new Response(null, { status: 404 });
    const response = await harness.handle(request);
    if (response !== null) return response;
    return notAControlEndpoint(harness, request.method, pathname, 'Move the route file to the folder of its endpoint path');
  };
  // One export per method of the control route table: the route file can answer every endpoint.
  return Object.fromEntries(CONTROL_METHODS.map((method) => [method, handler])) as { GET: RouteHandler; POST: RouteHandler; DELETE: RouteHandler };
}

function notAControlEndpoint(harness: Harness, method: string, pathname: string, remedy: string): Response {
  const { setScenario, getState } = harness.endpoints;
  return jsonResponse({ error: `Failed to answer ${method} ${pathname}: not a control endpoint of this harness (${setScenario}, ${getState}). ${remedy}.` }, 404);
}

/** A Pages Router API request: node:http's, with the body Next's parser may have read. */
type ApiRequest = IncomingMessage & { body?: unknown };

/**
 * A Pages Router API route (`pages/api/...`) for the control endpoints, for apps that keep
 * them under `/api` (`createHarness({ endpoints: { setScenario: '/api/scenario', ... } })`).
 * Turn Next's body parser off for that route, so a malformed body gets SPEC's JSON 400
 * rather than Next's plain-text one.
 *
 * @example
 * // pages/api/scenario.ts  (endpoints.setScenario and getScenario: '/api/scenario')
 * import { harness } from '../../harness';
 * export default harnessApiHandler(harness);
 * export const config = { api: { bodyParser: false } };
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/nextjs.md
 */
export function harnessApiHandler(harness: Harness): (req: ApiRequest, res: ServerResponse) => Promise<void> {
  warnIfNotTheProcessHarness(harness, 'harnessApiHandler()');
  return async (req, res) => {
    if (!harness.enabled) {
      res.statusCode = 404;
      res.end();
      return;
    }
    if (await handleNodeControlRequest(harness, req, res, { parsedBody: req.body })) return;
    const pathname = new URL(req.url ?? '/', 'http://app').pathname;
    await sendFetchResponse(res, notAControlEndpoint(harness, req.method ?? 'GET', pathname, 'Put the API route at the endpoint path, or set createHarness({ endpoints }) to it'));
  };
}

/**
 * A Next.js proxy (`proxy.ts`, Node.js runtime) that answers the control endpoints at their
 * configured paths, default or custom, for App Router and Pages Router apps alike. Every other
 * request goes on to `proxy` when given, else on to the app.
 *
 * @example
 * // proxy.ts
 * import { harness } from './harness';
 * export const proxy = harnessProxy(harness);
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/nextjs.md
 */
export function harnessProxy<Req extends Request, Rest extends unknown[], Result = undefined>(
  harness: Harness,
  proxy?: (request: Req, ...rest: Rest) => Result | Promise<Result>,
): (request: Req, ...rest: Rest) => Promise<Response | Result | undefined> {
  warnIfNotTheProcessHarness(harness, 'harnessProxy()');
  return async (request, ...rest) => {
    if (harness.isControlPath(new URL(request.url).pathname)) {
      const response = await harness.handle(request);
      if (response !== null) return response;
    }
    return proxy?.(request, ...rest);
  };
}
