import { createAccessCheck } from './access/create-access-check.js';
import { createOriginCheck } from './access/create-origin-check.js';
import { answeringHarness, becomeAnswering, leaveAnswering } from './answering-harness.js';
import { attachedHarness } from './attached-harness.js';
import { createCallListener } from './answer-call.js';
import type { ContractChecker } from './contract-check.js';
import { createContractGate } from './contract-gate.js';
import { DEFAULT_ENDPOINTS, DEFAULT_LIMITS, DEFAULT_TEST_ID, TEST_ID_HEADER } from './constants.js';
import { createControlRequestHandler } from './control/handle-control-request.js';
import { consoleLogger, quote, type Logger } from './dev-utils.js';
import { controlCallFromRequest, jsonAnswer, type ControlAnswer, type ControlCall } from './control/control-call.js';
import { toResponse } from './control/json-response.js';
import { HARNESS_INTERNALS, type HarnessInternals } from './harness-internals.js';
import { createJournalRecorder } from './journal/create-journal-recorder.js';
import type { JournalEntry, JournalFilter } from './journal/journal-entry.js';
import type { RecordMode } from './recording/recorded-exchange.js';
import { describeStartedHarness } from './describe-started-harness.js';
import { sayDisabledOnce } from './disabled-note.js';
import { compileScenarios } from './engine/compile-scenarios.js';
import { createStateRedactor } from './control/create-state-redactor.js';
import { unsupportedNodeReason } from './supported-runtime.js';
import { HarnessError } from './errors.js';
import type { HarnessExtensions } from './extensions.js';
import { addCallListener, checkInterception, removeCallListener } from './interception.js';
import { runtimeLayers } from './interception/runtime-layers.js';
import { readTestId, type HeadersLike } from './read-test-id.js';
import { createStartGuard } from './start-guard.js';
import { createMemoryStore } from './store/memory-store.js';
import { runWithTestId, tryGetTestId } from './test-context.js';
import type { ActiveScenario, HarnessEndpoints, HarnessOptions, Mock, ScenarioMap, ScenarioSummary } from './types.js';
import { seedChanges } from './store/seed-changes.js';
import { stateSeedRefusal } from './store/state-limit-note.js';
import { createOwnMockLayers } from './test-mocks/create-own-mock-layers.js';
import { productionRefusal } from './production-refusal.js';
import { createTestMocks } from './test-mocks/create-test-mocks.js';
import { undeclaredVariantNote } from './undeclared-variant-note.js';
import { unknownScenarioHint } from './unknown-scenario-hint.js';
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

/** The one start-up line, through `logger.info` (a logger without it stays silent). */
function announceLine(logger: Logger, message: string): void {
  logger.info?.(message);
}

/** The catalogue entries, in registration order, built once: definitions are fixed at creation. */
function catalogueOf(definitions: ScenarioMap, ids: Iterable<string>, variantsOf: (id: string) => Iterable<string>): readonly ScenarioSummary[] {
  return Object.freeze(
    [...ids].map((id) => {
      const { name, description } = definitions[id]!;
      return Object.freeze({ id, name, ...(description === undefined ? {} : { description }), variants: [...variantsOf(id)] });
    }),
  );
}

/**
 * The harness, with the layers above the core plugged in through `extensions` (the inspector,
 * the recorder's converter). Apps call `createHarness` (src/harness.ts), which passes them all.
 */
export function createHarnessCore<const S extends ScenarioMap>(options: HarnessOptions<S>, extensions: HarnessExtensions = {}): Harness<S> {
  validateOptions(options);
  const { enabled, scenarios: definitions, unhandled = 'warn', logger = consoleLogger, announce = enabled } = options;
  // A disabled harness never matches a call, so it skips the (slow) backtracking check.
  const compiled = compileScenarios(definitions, { checkRegexes: enabled });
  const catalogue = catalogueOf(definitions, compiled.keys(), (id) => compiled.get(id)?.variants.keys() ?? []);
  // A harness created while another answers (its module evaluated again by a dev server) keeps
  // that one's sessions, so tests switched before the reload keep their scenario, state and journal.
  const sideBySide = options.sideBySide === true || options.intercept === false;
  const adopted = options.store === undefined && enabled && !sideBySide ? answeringHarness()?.store : undefined;
  const store = options.store ?? adopted ?? createMemoryStore();
  const endpoints = Object.freeze({ ...DEFAULT_ENDPOINTS, ...options.endpoints });
  // @note A disabled harness is silent by SPEC §5 (no header read, nothing intercepted), which made
  // a forgotten HARNESS_ENABLED look like a broken harness: outside production and test runners it
  // says so once, at creation, unless `announce` was given (true says it at start() instead).
  if (!enabled && options.announce === undefined) sayDisabledOnce(logger, endpoints.setScenario);
  const maxBodyBytes = options.limits?.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes;
  const maxTestIdLength = options.limits?.maxTestIdLength ?? DEFAULT_LIMITS.maxTestIdLength;
  const maxStateBytes = options.limits?.maxStateBytes ?? DEFAULT_LIMITS.maxStateBytes;
  const journal = enabled ? createJournalRecorder(options.journal, store, logger) : undefined;
  const ownMocks = createOwnMockLayers(store);
  const testMocks = createTestMocks({
    store,
    ownMocks,
    maxMocks: options.limits?.maxTestMocks ?? DEFAULT_LIMITS.maxTestMocks,
    maxBytes: options.limits?.maxTestMockBytes ?? DEFAULT_LIMITS.maxTestMockBytes,
    maxTotalBytes: options.limits?.maxTotalTestMockBytes ?? DEFAULT_LIMITS.maxTotalTestMockBytes,
    mocksPath: endpoints.mocks,
    endPath: endpoints.setScenario,
  });
  const contracts = enabled ? options.contracts : undefined;
  /** Set by `start()`, which reads the documents: until then (and without `contracts`) no call is checked. */
  let contractChecker: ContractChecker | undefined;
  const checkContract = contracts === undefined ? undefined : createContractGate({ checker: () => contractChecker, onViolation: contracts.onViolation ?? 'warn', logger });
  const listener = createCallListener({
    journal,
    checkContract,
    ownMocks,
    scenarios: compiled,
    store,
    unhandled,
    logger,
    maxTestIdLength,
    maxStateBytes,
    allowHosts: options.allowHosts,
    propagateHosts: options.propagate?.hosts,
    // The standalone server's calls come from other processes: its loopback is not theirs.
    loopbackPasses: options.intercept !== false,
  });
  const checkAccess = enabled ? createAccessCheck(options.access, logger) : undefined;
  const checkOrigin = enabled ? createOriginCheck(options.control, { accessSet: options.access !== undefined, logger }) : undefined;
  let started: Promise<void> | undefined;
  let warnedLongTestId = false;
  const guard = createStartGuard(logger);

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

  /** Read the `contracts` documents, through the contracts extension (loaded only when they are set). */
  async function loadContracts(): Promise<void> {
    if (contracts === undefined || contractChecker !== undefined) return;
    if (extensions.loadContracts === undefined) {
      throw new HarnessError('INVALID_OPTIONS', 'Failed to start this harness: "contracts" is set, but this harness was built without the contract checks. Create it with createHarness from "scenario-harness".');
    }
    contractChecker = await extensions.loadContracts(contracts, logger);
  }

  /** Become the harness that answers this process's calls; one before it (same module, evaluated again) stops answering them. */
  async function answerInsteadOfPrevious(): Promise<void> {
    const { superseded, firstTime } = await becomeAnswering({ harness, store, supersede: () => removeCallListener(listener), resume: () => addCallListener(listener) });
    if (!superseded || !firstTime) return;
    const sessions =
      adopted === store
        ? 'tests switched before keep their scenario, state, sequence positions and journal'
        : 'it has a store of its own (the store option), so tests switched before start again from default unless both stores are the same Redis';
    logger.warn(
      `A harness was already answering in this process: the module that creates it was evaluated again (a dev server reloading it after an edit) or the package is loaded twice. The newest one answers from now on, with its definitions; ${sessions}. To run harnesses side by side on purpose, create each with sideBySide: true. (Logged once.)`,
    );
  }

  const harness: Harness<S> = {
    enabled,
    endpoints,
    async start() {
      if (!enabled) {
        if (announce) announceLine(logger, `disabled (enabled: false): nothing is intercepted and the control endpoints are not served. Tests need enabled: true, e.g. createHarness({ enabled: process.env.HARNESS_ENABLED === 'true', ... }).`);
        return;
      }
      const unsupported = unsupportedNodeReason();
      if (unsupported !== undefined) throw new HarnessError('UNSUPPORTED_RUNTIME', unsupported);
      const attached = attachedHarness();
      if (attached !== undefined && attached !== harness && options.intercept !== false) {
        throw new HarnessError(
          'INVALID_OPTIONS',
          'Failed to start this harness: scenario-harness/register already attached one to this process (node --import scenario-harness/register with HARNESS_ENABLED=true), and two harnesses would answer the same calls. Keep one: remove the --import and keep the app\'s own harness, or remove the app\'s harness.start() and let register answer from HARNESS_SCENARIOS.',
        );
      }
      if (started === undefined) {
        // `intercept: false` (the standalone server): sessions and control endpoints, no patched globals.
        // The documents are read before the first call is answered: one that cannot be read fails start(), naming it.
        // Under NODE_ENV=production without access it fails before anything, and the start guard keeps the reason.
        const refusal = productionRefusal(options);
        const starting = (refusal === undefined ? loadContracts() : Promise.reject(new HarnessError('INVALID_OPTIONS', refusal))).then(() => (options.intercept === false ? undefined : addCallListener(listener).then(() => (sideBySide ? undefined : answerInsteadOfPrevious()))));
        started = starting;
        guard.starting(starting);
        starting.then(
          () => {
            if (announce) announceLine(logger, describeStartedHarness(compiled.size, endpoints, unhandled, { journal: journal !== undefined, testMocks: store.addMocks !== undefined, browserCalls: extensions.answerBrowserCall !== undefined, runtime: runtimeLayers() }));
          },
          () => {
            if (started === starting) started = undefined;
          },
        );
      }
      await started;
    },
    async stop() {
      if (started === undefined) return;
      await started.catch(() => {});
      started = undefined;
      // The harness this one superseded (if still started) answers again, before this one lets go.
      await leaveAnswering(harness);
      if (options.intercept !== false) await removeCallListener(listener);
    },
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
    testIdFrom,
    currentTestId: () => tryGetTestId() ?? DEFAULT_TEST_ID,
    forwardHeaders: () => ({ [TEST_ID_HEADER]: tryGetTestId() ?? DEFAULT_TEST_ID }),
    async switchScenario(testId, scenarioId, variant) {
      await activate(testId, scenarioId, variant);
    },
    async getCalls(testId, filter) {
      assertTestId(testId, 'getCalls', maxTestIdLength);
      return journal === undefined ? [] : journal.read(testId, filter);
    },
    async clearCalls(testId) {
      assertTestId(testId, 'clearCalls', maxTestIdLength);
      await journal?.clear(testId);
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
    listScenarios: () => catalogue.map((entry) => ({ ...entry, variants: [...entry.variants] })),
    async useMocks(testId, mocks) {
      assertTestId(testId, 'useMocks', maxTestIdLength);
      const added = await testMocks.add(testId, mocks);
      if (added.ok) return added.count;
      const code = added.status === 400 ? 'INVALID_SCENARIOS' : 'INVALID_ARGUMENT';
      const problems = added.details === undefined ? '' : `\n${added.details.map(({ field, message }) => `  - ${field}: ${message}`).join('\n')}`;
      throw new HarnessError(code, `${added.status === 400 ? `Failed to add mocks for test ${quote(testId)}: invalid mocks (nothing was added):` : added.error}${problems}`);
    },
    async resetMocks(testId) {
      assertTestId(testId, 'resetMocks', maxTestIdLength);
      await testMocks.reset(testId);
    },
    async setState(testId, state) {
      assertTestId(testId, 'setState', maxTestIdLength);
      const changes = seedChanges(state);
      if (typeof changes === 'string') throw new HarnessError('INVALID_ARGUMENT', `Failed to set the state of test ${quote(testId)}: ${changes}.`);
      const refused = await store.updateState(testId, changes, undefined, { maxBytes: maxStateBytes });
      if (refused !== undefined) throw new HarnessError('INVALID_ARGUMENT', stateSeedRefusal(testId, refused, maxStateBytes).error);
    },
  };

  /** Switch a test; the returned warning says why the switch may not do what was meant. */
  async function activate(testId: string, scenarioId: string, variant: string | undefined): Promise<{ warning?: string }> {
    assertTestId(testId, 'switchScenario', maxTestIdLength);
    const scenario = compiled.get(scenarioId);
    if (scenario === undefined) {
      throw new HarnessError(
        'UNKNOWN_SCENARIO',
        `Scenario '${scenarioId}' not found. Did you forget to register it? ${unknownScenarioHint(scenarioId, [...compiled.keys()], endpoints.scenarios)}`,
      );
    }
    if (variant !== undefined && typeof variant !== 'string') {
      throw new HarnessError('INVALID_ARGUMENT', `Expected the variant to be a string, instead got ${typeof variant}.`);
    }
    const warning = variant === undefined || scenario.variants.has(variant) ? undefined : undeclaredVariantNote(scenarioId, variant, [...scenario.variants.keys()]);
    if (warning !== undefined) logger.warn(`Test ${quote(testId)} selected an undeclared variant. ${warning}`);
    await store.activate(testId, variant === undefined ? { scenarioId } : { scenarioId, variant });
    return warning === undefined ? {} : { warning };
  }

  /** The control endpoints on a plain-data call: `handle()` and the Node adapters share it. */
  async function handleControl(call: ControlCall): Promise<ControlAnswer | null> {
    if (!enabled || !control.isControlPath(call.pathname)) return null;
    // First of all, for every control endpoint present and future: a caller without the
    // credentials learns nothing, starts nothing, and its body is never read (decisions/access-control.md).
    // The inspector's page itself holds no data (its data endpoints stay guarded): it is served
    // without credentials so that it can ask for the token.
    // A browser request from another site, or to a Host a rebinding page could have chosen, is
    // refused the same way, first (decisions/cross-site-control-requests.md).
    const isInspectorPage = (call.method === 'GET' || call.method === 'HEAD') && (call.pathname === endpoints.inspector || `${call.pathname}/` === endpoints.inspector);
    const denied = isInspectorPage ? undefined : (checkOrigin?.(call) ?? (await checkAccess?.(call)));
    if (denied !== undefined) {
      call.discard();
      return denied;
    }
    const refusal = await guard.beforeControlRequest(`${call.method} ${call.pathname}`, harness.start);
    if (refusal !== undefined) {
      call.discard();
      return jsonAnswer({ error: refusal }, 503);
    }
    // A control call is a cheap moment to notice a global dispatcher the app replaced since start().
    await checkInterception();
    return control.handle(call);
  }
  const internals: HarnessInternals = Object.freeze({ handleControl, listener });
  Object.defineProperty(harness, HARNESS_INTERNALS, { value: internals, enumerable: false });

  const { inspector, draftRecording, answerBrowserCall } = extensions;
  let details: readonly unknown[] | undefined;
  const listSessions = store.listSessions;
  const redactState = createStateRedactor(compiled, options.journal === false ? [] : (options.journal?.redactHeaders ?? []));
  const control = createControlRequestHandler(
    {
      switchScenario: activate,
      getActiveScenario: harness.getActiveScenario,
      // Over HTTP (the state endpoint, the inspector), values taken from secret headers are redacted.
      getState: async (testId: string) => redactState(await harness.getState(testId)),
      endTest: harness.endTest,
      scenarioName: (scenarioId) => compiled.get(scenarioId)?.name,
      isRegistered: (scenarioId) => compiled.has(scenarioId),
      listScenarios: () => catalogue,
      scenarioDetails: () => (inspector === undefined ? undefined : (details ??= inspector.scenarioDetails(definitions, catalogue))),
      testMocks,
      async seedState(testId: string, state: unknown) {
        const changes = seedChanges(state);
        if (typeof changes === 'string') return { problem: changes };
        const refused = await store.updateState(testId, changes, undefined, { maxBytes: maxStateBytes });
        if (refused !== undefined) return { refused: stateSeedRefusal(testId, refused, maxStateBytes) };
        return { state: redactState(await harness.getState(testId)) };
      },
      ...(answerBrowserCall === undefined ? {} : { answerBrowserCall: (call: ControlCall, testId: string) => answerBrowserCall(call, testId, { listener, maxBodyBytes }) }),
      ...(listSessions === undefined ? {} : { listSessions: (cursor: string | undefined, limit: number, search?: string) => listSessions.call(store, cursor, limit, search) }),
      ...(store.setRecording === undefined || store.readRecorded === undefined || store.appendRecorded === undefined || draftRecording === undefined
        ? {}
        : {
            setRecording: (testId: string, mode: RecordMode | undefined) => store.setRecording!(testId, mode),
            async recording(testId: string, { stop, format }: { stop: boolean; format: 'json' | 'yaml' }) {
              const mode = (await store.read(testId))?.recording;
              if (stop) await store.setRecording!(testId, undefined);
              const exchanges = await store.readRecorded!(testId, { clear: stop });
              return { mode, exchanges: exchanges.length, ...(await draftRecording(exchanges, format, options.recording)) };
            },
          }),
      ...(journal === undefined ? {} : { getCalls: (testId: string, filter: JournalFilter) => journal.read(testId, filter), clearCalls: (testId: string) => journal.clear(testId) }),
    },
    { endpoints, maxBodyBytes, maxTestIdLength, logError: (message, error) => logger.error(message, error), logWarn: (message) => logger.warn(message), inspector },
  );

  // Non-enumerable (defineProperty's default): spreading or logging a harness never shows it.
  return harness;
}
