import { createCallListener } from './answer-call.js';
import { DEFAULT_TEST_ID, TEST_ID_HEADER } from './constants.js';
import { controlCallFromRequest } from './control/control-call.js';
import { createGuardedControl } from './control/guarded-control.js';
import { createControlRequestHandler } from './control/handle-control-request.js';
import { toResponse } from './control/json-response.js';
import { quote } from './dev-utils.js';
import { describeStartedHarness } from './describe-started-harness.js';
import { HarnessError } from './errors.js';
import { HARNESS_INTERNALS, type HarnessInternals } from './harness-internals.js';
import { createLifecycle } from './harness-lifecycle.js';
import { harnessSettings } from './harness-settings.js';
import { runtimeLayers } from './interception/runtime-layers.js';
import type { JournalEntry, JournalFilter } from './journal/journal-entry.js';
import { assembleParts } from './parts/assemble-parts.js';
import type { PartDefinition } from './parts/harness-part.js';
import { createTestIdReader, type HeadersLike } from './read-test-id.js';
import { assertTestId } from './spec/assert-test-id.js';
import { createSessionMethods } from './spec/session-methods.js';
import { SPEC_PART } from './spec/spec-part.js';
import { createStartGuard } from './start-guard.js';
import { runWithTestId, tryGetTestId } from './test-context.js';
import type { ActiveScenario, HarnessEndpoints, HarnessOptions, Mock, ScenarioMap, ScenarioSummary } from './types.js';
import { validateOptions } from './validate-options.js';

/** The IDs of a scenario map, as a union of string literals. */
export type ScenarioId<S extends ScenarioMap> = Extract<keyof S, string>;

/**
 * The variant names scenario `K` of `S` declares, as a union of string literals; any string
 * when it declares none, or when `S` is not known in detail (a plain `ScenarioMap`).
 */
export type VariantName<S extends ScenarioMap, K extends keyof S> = S[K] extends { variants: infer V }
  ? V extends Record<string, unknown>
    ? string extends keyof V
      ? string
      : Extract<keyof V, string>
    : string
  : string;

/** A harness: the control endpoints, the interception, and the per-test sessions. */
export interface Harness<S extends ScenarioMap = ScenarioMap> {
  /** `options.enabled`: when false the harness does nothing and adapters pass everything through. */
  readonly enabled: boolean;
  /** The control endpoint paths in use, defaults filled in. */
  readonly endpoints: Readonly<Required<HarnessEndpoints>>;
  /** Begin intercepting outgoing calls. Idempotent; a no-op when disabled. */
  start(): Promise<void>;
  /** Stop intercepting and restore `fetch` and `http` (when no other harness is started). */
  stop(): Promise<void>;
  /** A control request's Response, or `null` for any other request (and always when disabled). */
  handle(request: Request): Promise<Response | null>;
  /** True when `pathname` is one of the control endpoint paths (always false when disabled). */
  isControlPath(pathname: string): boolean;
  /** Run `fn` with `testId` as the current test, for every call it makes (AsyncLocalStorage). */
  run<T>(testId: string, fn: () => T): T;
  /** The test ID that headers carry, by SPEC §1: missing or empty → `default-test`; longer than `limits.maxTestIdLength` → `default-test` too. */
  testIdFrom(headers: HeadersLike): string;
  /** Inside `run()`: its test ID; elsewhere `default-test`. */
  currentTestId(): string;
  /** `{ 'x-harness-test-id': currentTestId() }`, to forward the test ID by hand (other processes, queues). */
  forwardHeaders(): Record<string, string>;
  /**
   * Select a scenario (and variant) for a test, clearing its state and sequences. Same rules as
   * `POST /__scenario__`: an unknown scenario throws `UNKNOWN_SCENARIO` (with the near ID, if
   * any); a variant the scenario does not declare is accepted and logged.
   */
  switchScenario<K extends ScenarioId<S>>(testId: string, scenarioId: K, variant?: VariantName<S, K>): Promise<void>;
  /** The scenario a test selected, or `undefined` when it selected none. */
  getActiveScenario(testId: string): Promise<ActiveScenario | undefined>;
  /** The state a test's mocks wrote (`{}` when none). */
  getState(testId: string): Promise<Record<string, unknown>>;
  /** Forget a test ID entirely: scenario, state and sequence positions. */
  endTest(testId: string): Promise<void>;
  /** The registered scenarios with their names, descriptions and declared variants, as `GET /__harness__/scenarios` lists them. */
  listScenarios(): ScenarioSummary[];
  /**
   * The outgoing calls a test's app made, oldest first, as `GET /__harness__/journal` returns
   * them: what was sent (secrets redacted), which mock answered (or why none did). `[]` when
   * the journal is off.
   * @example
   * const [charge] = await harness.getCalls(testId, { method: 'POST', url: '*\/v1/charges' });
   */
  getCalls(testId: string, filter?: JournalFilter): Promise<JournalEntry[]>;
  /** Empty a test's journal (its scenario, state and sequences stay). */
  clearCalls(testId: string): Promise<void>;
  /**
   * Add mocks for one test only, answered before its scenario (journal `layer: 'test'`); kept
   * across a switch, which starts their sequences over; gone when the test ends. Checked like a
   * scenario's mocks (an invalid one throws `INVALID_SCENARIOS` and adds nothing); here, in
   * process, a response may be a function. Returns how many mocks the test now has.
   * @example
   * await harness.useMocks(testId, [{ method: 'POST', url: 'https://api.stripe.com/v1/charges', response: { status: 402 } }]);
   * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/control-api.md
   */
  useMocks(testId: string, mocks: Mock[]): Promise<number>;
  /** Remove a test's own mocks (its scenario, state and journal stay). */
  resetMocks(testId: string): Promise<void>;
  /**
   * Merge keys into a test's state, by the rules of `afterResponse.setState` (dots are part of a
   * key, `items[]` appends), for templates and `match.state` to read. A switch clears it (SPEC):
   * switch first, then seed.
   * @example
   * await harness.setState(testId, { 'user.id': 'u-1', 'user.plan': 'pro' });
   */
  setState(testId: string, state: Record<string, unknown>): Promise<void>;
}

/** A method of a part this harness was assembled without. */
function withoutPart(method: string): () => never {
  return () => {
    throw new HarnessError('INVALID_OPTIONS', `harness.${method}() belongs to a part this harness was built without. Create it with createHarness from "scenario-harness".`);
  };
}

/**
 * A harness assembled from `parts` (src/core/parts/harness-part.ts), besides the core's own: the
 * sessions and the SPEC endpoints. Apps call `createHarness` (src/harness.ts), which passes every
 * part the package has; the core holds no capability's code, so a new capability is a new part.
 */
export function createHarnessCore<const S extends ScenarioMap>(options: HarnessOptions<S>, parts: readonly PartDefinition[] = []): Harness<S> {
  const definitions = [SPEC_PART, ...parts];
  validateOptions(options, definitions);
  const settings = harnessSettings(options);
  const { enabled, logger, endpoints, limits, store, scenarios } = settings;
  const unhandled = options.unhandled ?? 'warn';
  const sessions = createSessionMethods({ options, ...scenarios, store, logger, endpoints, maxTestIdLength: limits.maxTestIdLength, maxStateBytes: limits.maxStateBytes });
  const checkTestId = (testId: unknown, method: string): void => assertTestId(testId, method, limits.maxTestIdLength);
  const assembled = assembleParts(definitions, { options, enabled, store, logger, endpoints, limits, timing: settings.timing, scenarios, sessions, assertTestId: checkTestId, listener: () => listener }, (path) => control.isControlPath(path));
  const listener = createCallListener({
    scenarios: scenarios.compiled,
    store,
    unhandled,
    logger,
    maxTestIdLength: limits.maxTestIdLength,
    maxStateBytes: limits.maxStateBytes,
    allowHosts: options.allowHosts,
    propagateHosts: options.propagate?.hosts,
    steps: assembled.steps,
    timing: settings.timing,
    // The standalone server's calls come from other processes: its loopback is not theirs.
    loopbackPasses: options.intercept !== false,
  });
  const control = createControlRequestHandler(assembled.routes, { endpoints, maxBodyBytes: limits.maxBodyBytes, maxTestIdLength: limits.maxTestIdLength, logError: (message, error) => logger.error(message, error) });
  const guard = createStartGuard(logger);
  const announce = (): void => {
    if (settings.announce) logger.info?.(describeStartedHarness(scenarios.compiled.size, endpoints, unhandled, assembled.listed, runtimeLayers()));
  };
  const { getCalls = withoutPart('getCalls'), clearCalls = withoutPart('clearCalls'), useMocks = withoutPart('useMocks'), resetMocks = withoutPart('resetMocks') } = assembled.methods;

  const harness: Harness<S> = {
    enabled,
    endpoints,
    async start() {
      if (enabled) return lifecycle.start();
      if (settings.announce) logger.info?.(`disabled (enabled: false): nothing is intercepted and the control endpoints are not served. Tests need enabled: true, e.g. createHarness({ enabled: process.env.HARNESS_ENABLED === 'true', ... }).`);
    },
    stop: () => lifecycle.stop(),
    async handle(request) {
      if (!enabled) return null;
      const url = new URL(request.url);
      if (!control.isControlPath(url.pathname)) return null;
      const answer = await handleControl(controlCallFromRequest(request, url));
      return answer === null ? null : toResponse(answer);
    },
    isControlPath: (pathname) => enabled && control.isControlPath(pathname),
    run(testId, fn) {
      if (enabled) guard.assertStarted(() => `run a request as test ${quote(testId)}`);
      return runWithTestId(testId, fn);
    },
    testIdFrom: createTestIdReader(limits.maxTestIdLength, logger),
    currentTestId: () => tryGetTestId() ?? DEFAULT_TEST_ID,
    forwardHeaders: () => ({ [TEST_ID_HEADER]: tryGetTestId() ?? DEFAULT_TEST_ID }),
    switchScenario: sessions.switchScenario,
    getActiveScenario: sessions.getActiveScenario,
    getState: sessions.getState,
    endTest: sessions.endTest,
    setState: sessions.setState,
    listScenarios: sessions.listScenarios,
    getCalls,
    clearCalls,
    useMocks,
    resetMocks,
  };
  const lifecycle = createLifecycle(harness, { options, logger, store, adoptedStore: settings.adoptedStore, listener, guard, parts: assembled, onStarted: announce });
  const guarded = enabled ? createGuardedControl({ options, logger, control, guard, start: harness.start }) : undefined;
  const handleControl: HarnessInternals['handleControl'] = async (call) => (guarded === undefined ? null : guarded(call));
  // Non-enumerable (defineProperty's default): spreading or logging a harness never shows it.
  Object.defineProperty(harness, HARNESS_INTERNALS, { value: Object.freeze({ handleControl, listener }) });
  return harness;
}
