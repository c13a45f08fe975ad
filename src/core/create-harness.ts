import { createCallListener } from './answer-call.js';
import { DEFAULT_ENDPOINTS, DEFAULT_LIMITS, DEFAULT_TEST_ID, TEST_ID_HEADER } from './constants.js';
import { createControlRequestHandler } from './control/handle-control-request.js';
import { consoleLogger, quote, quoteList } from './dev-utils.js';
import { compileScenarios } from './engine/compile-scenarios.js';
import { HarnessError } from './errors.js';
import { HARNESS_INTERNALS, type HarnessInternals } from './harness-internals.js';
import { addCallListener, removeCallListener } from './interception.js';
import { readTestId, type HeadersLike } from './read-test-id.js';
import { createMemoryStore } from './store/memory-store.js';
import { runWithTestId, tryGetTestId } from './test-context.js';
import type { ActiveScenario, HarnessEndpoints, HarnessOptions, ScenarioMap } from './types.js';
import { validateOptions } from './validate-options.js';

/** The IDs of a scenario map, as a union of string literals. */
export type ScenarioId<S extends ScenarioMap> = Extract<keyof S, string>;

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
  /** Select a scenario (and variant) for a test, clearing its state and sequences. Same rules as `POST /__scenario__`. */
  switchScenario(testId: string, scenarioId: ScenarioId<S>, variant?: string): Promise<void>;
  /** The scenario a test selected, or `undefined` when it selected none. */
  getActiveScenario(testId: string): Promise<ActiveScenario | undefined>;
  /** The state a test's mocks wrote (`{}` when none). */
  getState(testId: string): Promise<Record<string, unknown>>;
  /** Forget a test ID entirely: scenario, state and sequence positions. */
  endTest(testId: string): Promise<void>;
}

function assertTestId(testId: unknown, method: string, maxLength: number): asserts testId is string {
  if (typeof testId !== 'string' || testId === '') {
    throw new HarnessError('INVALID_TEST_ID', `Expected a non-empty test ID as the first argument of harness.${method}(), instead got ${JSON.stringify(testId)}.`);
  }
  if (testId.length > maxLength) {
    throw new HarnessError(
      'INVALID_TEST_ID',
      `Expected a test ID of at most ${maxLength} characters (limits.maxTestIdLength) as the first argument of harness.${method}(), instead got one of ${testId.length}. Use a shorter test ID, such as a UUID.`,
    );
  }
}

/**
 * Create a harness from scenario definitions. Definitions are validated here: a mistake
 * throws a `HarnessError` naming the scenario, the mock and the field.
 *
 * @example
 * const harness = createHarness({ enabled: process.env.NODE_ENV === 'test', scenarios });
 * await harness.start();
 * app.use(harnessMiddleware(harness));
 * @see https://github.com/scenario-harness/scenario-harness#readme
 */
export function createHarness<const S extends ScenarioMap>(options: HarnessOptions<S>): Harness<S> {
  validateOptions(options);
  const { enabled, scenarios: definitions, unhandled = 'warn', logger = consoleLogger } = options;
  // A disabled harness never matches a call, so it skips the (slow) backtracking check.
  const compiled = compileScenarios(definitions, { checkRegexes: enabled });
  const store = options.store ?? createMemoryStore();
  const endpoints = Object.freeze({ ...DEFAULT_ENDPOINTS, ...options.endpoints });
  const maxBodyBytes = options.limits?.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes;
  const maxTestIdLength = options.limits?.maxTestIdLength ?? DEFAULT_LIMITS.maxTestIdLength;
  const listener = createCallListener({ scenarios: compiled, store, unhandled, logger, maxTestIdLength });
  let started: Promise<void> | undefined;
  let warnedLongTestId = false;

  /** SPEC's test-ID rules, plus the length limit: an over-long ID counts as no ID (`default-test`). */
  function testIdFrom(headers: HeadersLike): string {
    const testId = readTestId(headers);
    if (testId.length <= maxTestIdLength) return testId;
    if (!warnedLongTestId) {
      warnedLongTestId = true;
      logger.warn(
        `A request carried a ${TEST_ID_HEADER} header of ${testId.length} characters, over the limit of ${maxTestIdLength} (limits.maxTestIdLength), so it runs as ${quote(DEFAULT_TEST_ID)}. Use shorter test IDs, such as UUIDs (logged once).`,
      );
    }
    return DEFAULT_TEST_ID;
  }

  const harness: Harness<S> = {
    enabled,
    endpoints,
    async start() {
      if (!enabled) return;
      started ??= addCallListener(listener).catch((error: unknown) => {
        started = undefined;
        throw error;
      });
      await started;
    },
    async stop() {
      if (started === undefined) return;
      await started.catch(() => {});
      started = undefined;
      await removeCallListener(listener);
    },
    handle: async (request) => (enabled ? control.handle(request) : null),
    isControlPath: (pathname) => enabled && control.isControlPath(pathname),
    run: (testId, fn) => runWithTestId(testId, fn),
    testIdFrom,
    currentTestId: () => tryGetTestId() ?? DEFAULT_TEST_ID,
    forwardHeaders: () => ({ [TEST_ID_HEADER]: tryGetTestId() ?? DEFAULT_TEST_ID }),
    async switchScenario(testId, scenarioId, variant) {
      assertTestId(testId, 'switchScenario', maxTestIdLength);
      const scenario = compiled.get(scenarioId);
      if (scenario === undefined) {
        throw new HarnessError(
          'UNKNOWN_SCENARIO',
          `Scenario '${scenarioId}' not found. Did you forget to register it? Registered scenarios: ${quoteList(compiled.keys())}.`,
        );
      }
      if (variant !== undefined && typeof variant !== 'string') {
        throw new HarnessError('INVALID_ARGUMENT', `Expected the variant to be a string, instead got ${typeof variant}.`);
      }
      if (variant !== undefined && !scenario.variants.has(variant)) {
        logger.warn(
          `Test ${quote(testId)} selected variant ${quote(variant)} of scenario ${quote(scenarioId)}, which declares no such variant, so it adds no mocks. Declared variants: ${quoteList(scenario.variants.keys())}.`,
        );
      }
      await store.activate(testId, variant === undefined ? { scenarioId } : { scenarioId, variant });
    },
    async getActiveScenario(testId) {
      assertTestId(testId, 'getActiveScenario', maxTestIdLength);
      return (await store.read(testId))?.active;
    },
    async getState(testId) {
      assertTestId(testId, 'getState', maxTestIdLength);
      return { ...(await store.read(testId))?.state };
    },
    async endTest(testId) {
      assertTestId(testId, 'endTest', maxTestIdLength);
      await store.end(testId);
    },
  };

  const control = createControlRequestHandler(
    {
      switchScenario: (testId, scenarioId, variant) => harness.switchScenario(testId, scenarioId as ScenarioId<S>, variant),
      getActiveScenario: harness.getActiveScenario,
      getState: harness.getState,
      endTest: harness.endTest,
      scenarioName: (scenarioId) => compiled.get(scenarioId)?.name,
      isRegistered: (scenarioId) => compiled.has(scenarioId),
    },
    { endpoints, maxBodyBytes, maxTestIdLength, logError: (message, error) => logger.error(message, error) },
  );

  // Non-enumerable (defineProperty's default): spreading or logging a harness never shows it.
  const internals: HarnessInternals = Object.freeze({ listener });
  Object.defineProperty(harness, HARNESS_INTERNALS, { value: internals });
  return harness;
}
