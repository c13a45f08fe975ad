/**
 * @module
 * The harness as the edge runtime gets it, for both entries compiled there (`scenario-harness`
 * and `scenario-harness/next` under the `edge-light` condition): off, with the shape of one,
 * importing nothing from Node. Below the entry points, so neither imports the other.
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

export function notOnTheEdge(what: string): never {
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
