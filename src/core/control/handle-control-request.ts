import { TEST_ID_HEADER } from '../constants.js';
import type { PartRoute, RouteRequest } from '../parts/harness-part.js';
import { readTestId } from '../read-test-id.js';
import type { HarnessEndpoints } from '../types.js';
import { jsonAnswer, type ControlAnswer, type ControlCall } from './control-call.js';
import { routeMethod, routePaths, type RouteAccess } from './control-routes.js';
import { toErrorAnswer } from './json-response.js';

export interface ControlOptions {
  endpoints: Readonly<Required<HarnessEndpoints>>;
  /** `limits.maxBodyBytes`: what a route with that body limit reads at most. */
  maxBodyBytes: number;
  /** `limits.maxTestIdLength`: a longer test ID is a 400. */
  maxTestIdLength: number;
  logError(message: string, error: unknown): void;
}

/** The control endpoints of SPEC §4, dispatched on the route table. */
export interface ControlRequestHandler {
  /** A control request's answer, or `null` for any other request. */
  handle(call: ControlCall): Promise<ControlAnswer | null>;
  isControlPath(pathname: string): boolean;
  /** Who may make this call: the access rule of the route it reaches (`guarded` when it reaches none, a `405`). */
  accessOf(call: ControlCall): RouteAccess;
}

/** The JSON body of a call, up to `limit` bytes, or the answer every endpoint gives for one it cannot take. */
async function readBody(call: ControlCall, limit: number): ReturnType<RouteRequest['readBody']> {
  const body = await call.readJson(limit);
  if (body.ok) return body;
  return { ok: false, answer: body.status === 413 ? jsonAnswer({ error: 'Request body too large' }, 413) : jsonAnswer({ error: 'Invalid request body', details: [body.issue] }, 400) };
}

/**
 * Build the control endpoints of SPEC §4 from the parts' routes, as one handler every framework
 * adapter calls (which is how they all behave the same). It answers `404` off the table's paths
 * (`null`: not a control request), `405` with `Allow` for a method no route on the path takes,
 * `400` for an over-long test ID, and an error answer for any failure (SPEC §7). Routes that
 * share a path (`setScenario` and `getScenario` by default) are tried in table order.
 */
export function createControlRequestHandler(routes: readonly PartRoute[], options: ControlOptions): ControlRequestHandler {
  const { endpoints, maxBodyBytes, maxTestIdLength } = options;
  const onPath = new Map<string, PartRoute[]>();
  for (const route of routes) {
    for (const path of routePaths(route, endpoints)) onPath.set(path, [...(onPath.get(path) ?? []), route]);
  }

  function routeFor(call: ControlCall): PartRoute | undefined {
    const method = routeMethod(call.method);
    return onPath.get(call.pathname)?.find(({ methods }) => (methods as readonly string[]).includes(method));
  }

  async function answer(call: ControlCall): Promise<ControlAnswer> {
    const testId = readTestId({ [TEST_ID_HEADER]: call.header(TEST_ID_HEADER) ?? undefined, baggage: call.header('baggage') ?? undefined });
    if (testId.length > maxTestIdLength) {
      return jsonAnswer(
        { error: `Test ID too long: the ${TEST_ID_HEADER} header has ${testId.length} characters, the limit is ${maxTestIdLength} (limits.maxTestIdLength). Use a shorter test ID, such as a UUID.` },
        400,
      );
    }
    const route = routeFor(call);
    if (route === undefined) {
      const allowed = [...new Set(onPath.get(call.pathname)!.flatMap(({ methods }) => methods))];
      return jsonAnswer({ error: `Method ${call.method} is not allowed on ${call.pathname}. Use ${allowed.join(', ')}.` }, 405, { allow: allowed.join(', ') });
    }
    const bodyLimit = route.bodyLimit === 'maxBodyBytes' ? maxBodyBytes : 0;
    return route.answer({ call, testId, pathname: call.pathname, bodyLimit, readBody: () => readBody(call, bodyLimit) });
  }

  return {
    isControlPath: (pathname) => onPath.has(pathname),
    accessOf: (call) => routeFor(call)?.access ?? 'guarded',
    async handle(call) {
      if (!onPath.has(call.pathname)) return null;
      try {
        return await answer(call);
      } catch (error) {
        return toErrorAnswer(error, options.logError);
      } finally {
        // A body the endpoint did not read (GET, 405, a refused test ID) would stall the connection.
        call.discard();
      }
    },
  };
}
