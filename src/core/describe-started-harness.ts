import type { ControlMethod, ControlRoute } from './control/control-routes.js';
import type { RuntimeLayers } from './interception/runtime-layers.js';
import type { HarnessEndpoints, UnhandledCallStrategy } from './types.js';

/** The order the line names an endpoint's methods in. */
const LINE_ORDER: readonly ControlMethod[] = ['GET', 'POST', 'DELETE'];

/**
 * The line a harness logs when it starts: that it is on, how many scenarios it has, where the
 * control endpoints and the inspector are, what happens to calls no mock answers and, on a
 * runtime where some way out cannot be intercepted (Bun, Deno), which. One line, so it is found
 * in an app's start-up log at a glance.
 */
export function describeStartedHarness(scenarioCount: number, endpoints: Readonly<Required<HarnessEndpoints>>, unhandled: UnhandledCallStrategy, listed: readonly ControlRoute[], runtime?: Pick<RuntimeLayers, 'name' | 'notIntercepted'>): string {
  // From the route table: the routes of parts that are on (a store without addMocks answers the mocks endpoint 501, so the line never offers it).
  const control = listed.filter((route) => route.listed === 'when-on').map((route) => `${LINE_ORDER.filter((method) => route.methods.includes(method)).join('|')} ${endpoints[route.endpoint]}`);
  const pages = listed.filter((route) => route.listed === 'page').map((route) => `; ${route.endpoint} ${endpoints[route.endpoint]} (open it in a browser)`).join('');
  const strategy = typeof unhandled === 'function' ? 'a function' : `'${unhandled}'`;
  const scenarios = `${scenarioCount} ${scenarioCount === 1 ? 'scenario' : 'scenarios'}`;
  const gaps = runtime?.notIntercepted ?? [];
  // No silent gaps: what passes the harness by on this runtime is said where the user looks first.
  const notIntercepted = gaps.length === 0 ? '' : `; on ${runtime!.name} NOT intercepted: ${gaps.join('; ')}`;
  return `on: intercepting outgoing calls with ${scenarios}; control endpoints ${control.join(', ')}${pages}; unhandled calls: ${strategy}${notIntercepted}.`;
}
