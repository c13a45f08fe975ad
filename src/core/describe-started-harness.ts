import { CONTROL_ROUTES, type ControlMethod, type RouteListing } from './control/control-routes.js';
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
export function describeStartedHarness(scenarioCount: number, endpoints: Readonly<Required<HarnessEndpoints>>, unhandled: UnhandledCallStrategy, serves: { journal: boolean; testMocks: boolean; browserCalls?: boolean; runtime?: Pick<RuntimeLayers, 'name' | 'notIntercepted'> }): string {
  const serving: Record<RouteListing, boolean> = { always: true, testMocks: serves.testMocks, browserCalls: serves.browserCalls === true, journal: serves.journal };
  // From the route table: a store without addMocks answers the mocks endpoint 501, so the line never offers it.
  const control = CONTROL_ROUTES.filter((route) => route.listed !== undefined && serving[route.listed]).map((route) => `${LINE_ORDER.filter((method) => route.methods.includes(method)).join('|')} ${endpoints[route.endpoint]}`);
  const strategy = typeof unhandled === 'function' ? 'a function' : `'${unhandled}'`;
  const scenarios = `${scenarioCount} ${scenarioCount === 1 ? 'scenario' : 'scenarios'}`;
  const gaps = serves.runtime?.notIntercepted ?? [];
  // No silent gaps: what passes the harness by on this runtime is said where the user looks first.
  const notIntercepted = gaps.length === 0 ? '' : `; on ${serves.runtime!.name} NOT intercepted: ${gaps.join('; ')}`;
  return `on: intercepting outgoing calls with ${scenarios}; control endpoints ${control.join(', ')}; inspector ${endpoints.inspector} (open it in a browser); unhandled calls: ${strategy}${notIntercepted}.`;
}
