import { DEFAULT_LIMITS, DEFAULT_SCENARIO_ID, DEFAULT_TEST_ID, TEST_ID_HEADER } from './constants.js';
import { quote, type Logger } from './dev-utils.js';
import { buildReply } from './engine/build-response.js';
import { compileResponse, evaluateStateChanges, type CompiledMock, type CompiledResponse } from './engine/compile-mock.js';
import { mockResponseSchema } from './scenario-schema.js';
import type { CompiledScenario } from './engine/compile-scenarios.js';
import { describeNearMisses } from './engine/describe-near-misses.js';
import type { MockIndex } from './engine/mock-index.js';
import { resolveMock, resolveMockNow } from './engine/resolve-mock.js';
import type { TemplateContext } from './engine/template.js';
import { HarnessError } from './errors.js';
import { NOT_NOW, PASS, type CallListener, type CallOutcome, type ImmediateOutcome } from './interception/call-outcome.js';
import type { OutgoingCall } from './interception/outgoing-call.js';
import { isLoopback, isLoopbackWithoutLookup } from './is-loopback.js';
import { createCapture, type CaptureHandle } from './recording/capture.js';
import { compileHostList } from './host-list.js';
import type { MockReply } from './interception/mock-reply.js';
import { hasNoBodyToRead, type JournalRecorder } from './journal/create-journal-recorder.js';
import type { JournalEntry } from './journal/journal-entry.js';
import { EMPTY_STATE } from './store/apply-state-changes.js';
import { storeNowOf } from './store/store-now.js';
import type { SessionStore, TestState } from './store/session-store.js';
import { tryGetTestId } from './test-context.js';
import type { MockResponse, MockResponseContext, MockResponseFunction, UnhandledCallStrategy } from './types.js';

export interface CallAnswererOptions {
  scenarios: ReadonlyMap<string, CompiledScenario>;
  store: SessionStore;
  unhandled: UnhandledCallStrategy;
  logger: Logger;
  /** A call's own test-ID header longer than this is ignored. @default 256 */
  maxTestIdLength?: number;
  /** Hosts reached for real when no mock answers, like loopback (`allowHosts`). */
  allowHosts?: readonly (string | RegExp)[];
  /** Hosts whose calls carry the current test ID (`propagate.hosts`). */
  propagateHosts?: readonly (string | RegExp)[];
  /** Where each call is recorded for its test; `undefined`: no journal. */
  journal?: JournalRecorder;
  /**
   * Loopback calls no mock answers go through, whatever `unhandled` says: an app's own servers
   * and in-process test clients live there. `false` for the standalone server, whose calls come
   * from other processes and must not reach what listens on its loopback.
   * @default true
   */
  loopbackPasses?: boolean;
}

const NO_LAYERS: readonly MockIndex[] = [];
/** Exchanges kept per recording test: a recording is one test's calls, not a soak. */
const MAX_RECORDED = 500;

/**
 * The intercepted-call side of a harness: find the test, its scenario layers and the mock that
 * answers; build the reply; write `setState`; apply `unhandled` when nothing answers.
 */
export function createCallListener(options: CallAnswererOptions): CallListener {
  const { scenarios, store, unhandled, logger, maxTestIdLength = DEFAULT_LIMITS.maxTestIdLength, loopbackPasses = true } = options;
  const fallback = scenarios.get(DEFAULT_SCENARIO_ID);
  const defaultLayers: readonly MockIndex[] = fallback ? [fallback.mocks] : NO_LAYERS;
  const warnedCalls = new Set<string>();
  const isAllowedHost = compileHostList(options.allowHosts ?? []);
  const isPropagatedHost = compileHostList(options.propagateHosts ?? []);
  /** Per unanswered call: the test and layers it was looked up in, so `unanswered` can explain itself. */
  const lastLookup = new WeakMap<OutgoingCall, { testId: string; scenarioId: string; layers: readonly MockIndex[]; state: TestState; startedAt: number }>();
  const { journal } = options;
  const readSessionNow = storeNowOf(store)?.read;

  /**
   * Variant overlay → active scenario → `default`, built once per scenario and declared
   * variant at creation, so a call allocates nothing to find its layers.
   */
  const layerTable = new Map<string, { base: readonly MockIndex[]; variants: ReadonlyMap<string, readonly MockIndex[]> }>();
  for (const scenario of scenarios.values()) {
    const base = scenario === fallback ? defaultLayers : [scenario.mocks, ...defaultLayers];
    const variants = new Map([...scenario.variants].map(([name, overlay]) => [name, [overlay, ...base]] as const));
    layerTable.set(scenario.id, { base, variants });
  }
  function layersFor(scenarioId: string | undefined, variant: string | undefined): readonly MockIndex[] {
    const entry = layerTable.get(scenarioId ?? DEFAULT_SCENARIO_ID);
    if (entry === undefined) return defaultLayers;
    return (variant === undefined ? undefined : entry.variants.get(variant)) ?? entry.base;
  }

  function testIdOf(call: OutgoingCall): string {
    // The call's own header (unless over-long), else the inbound request's async context, else the default.
    const header = call.header(TEST_ID_HEADER);
    return (header !== null && header.length <= maxTestIdLength && header) || tryGetTestId() || DEFAULT_TEST_ID;
  }

  /** The capture of a call a recording test passes on: its exchange is kept in the test's session. */
  function captureFor(testId: string, call: OutgoingCall): Promise<CaptureHandle> {
    return createCapture(call, (exchange) => {
      store.appendRecorded?.(testId, exchange, MAX_RECORDED).catch((error: unknown) => logger.error(`Failed to keep a recorded call of test ${quote(testId)}: ${(error as Error).message}`));
    });
  }

  async function answer(call: OutgoingCall): Promise<CallOutcome | undefined> {
    const startedAt = performance.now();
    const testId = testIdOf(call);
    // The session must outlive the call: the store may not evict it between these awaits.
    const unpin = store.pin?.(testId);
    try {
      const session = await store.read(testId);
      const active = session?.active;
      const state = session?.state ?? EMPTY_STATE;
      // Recording 'all': every call goes to the real upstream, and its answer is kept.
      // (Loopback calls are the app's own and in-process test clients': never recorded.)
      if (session?.recording === 'all' && !isLoopback(call.url.hostname)) return { kind: 'pass', capture: await captureFor(testId, call) };
      const layers = layersFor(active?.scenarioId, active?.variant);
      const resolution = await resolveMock({ call, testId, state, layers, store });
      if (resolution === undefined) {
        // Recording 'missing': what the scenario cannot answer goes to the real upstream, whatever `unhandled` says.
        if (session?.recording === 'missing' && !isLoopback(call.url.hostname)) return { kind: 'pass', capture: await captureFor(testId, call) };
        lastLookup.set(call, { testId, scenarioId: active?.scenarioId ?? DEFAULT_SCENARIO_ID, layers, state, startedAt });
        return undefined;
      }
      const { mock } = resolution;
      let answer = resolution.response;
      let reply: MockReply;
      if (answer.fixedReply !== undefined && mock.setState === undefined) reply = answer.fixedReply;
      else {
        const context: TemplateContext = { params: resolution.params, url: call.url, headers: call.headers, body: resolution.body, state, variant: active?.variant };
        if (answer.dynamic !== undefined) {
          const made = await runResponseFunction(answer.dynamic, call, mock, { testId, scenarioId: mock.scenarioId, variant: active?.variant, params: resolution.params, state });
          if (made instanceof Error) return { kind: 'fail', error: made };
          answer = made;
        }
        reply = buildReply(answer, context);
        // The generation read with the session: a switch while this call was in flight makes the write a no-op.
        if (mock.setState !== undefined) await store.updateState(testId, evaluateStateChanges(mock, context), session?.generation ?? '');
      }
      if (journal !== undefined) {
        const step = mock.repeat === undefined ? undefined : mock.responses.indexOf(resolution.response);
        const nearMisses = journal.explainAnswered ? await describeNearMisses(call, layers, state) : undefined;
        await journal.answered(testId, call, { mock, step, reply, activeScenarioId: active?.scenarioId }, startedAt, nearMisses);
      }
      return { kind: 'reply', reply };
    } catch (error) {
      // A failing store (Redis down) must not silently send the call to the real network.
      const fails = unhandled === 'error';
      const message = `Failed to answer ${call.method} ${call.url.href} for test ${quote(testId)} from its scenario: ${(error as Error).message.replace(/\.$/, '')}. The call ${fails ? "fails with a network error (unhandled: 'error')" : 'goes to the real network'}.`;
      logger.error(message);
      return fails ? { kind: 'fail', error: new HarnessError('STORE_UNAVAILABLE', `[scenario-harness] ${message}`, { cause: error }) } : PASS;
    } finally {
      unpin?.();
    }
  }

  /**
   * `answer` without awaiting, for the common call: a store in memory, a mock matched on method
   * and URL alone, no sequence, no `setState`, no response function, no request body to journal.
   * Every other call (and any error) is `NOT_NOW`: the asynchronous path decides and reports it.
   */
  function answerNow(call: OutgoingCall): ImmediateOutcome {
    if (readSessionNow === undefined || (journal !== undefined && (journal.explainAnswered || !hasNoBodyToRead(call)))) return NOT_NOW;
    try {
      const startedAt = performance.now();
      const testId = testIdOf(call);
      const session = readSessionNow(testId);
      if (session?.recording !== undefined) return NOT_NOW;
      const active = session?.active;
      const state = session?.state ?? EMPTY_STATE;
      const resolution = resolveMockNow(call, layersFor(active?.scenarioId, active?.variant), state);
      if (resolution === undefined || resolution === NOT_NOW) return NOT_NOW;
      const { mock, response } = resolution;
      if (mock.setState !== undefined || response.dynamic !== undefined) return NOT_NOW;
      const reply = response.fixedReply ?? buildReply(response, { params: resolution.params, url: call.url, headers: call.headers, body: undefined, state, variant: active?.variant });
      void journal?.answered(testId, call, { mock, step: undefined, reply, activeScenarioId: active?.scenarioId }, startedAt);
      return { kind: 'reply', reply };
    } catch {
      return NOT_NOW;
    }
  }

  /**
   * Run a response function and compile what it returns; a throw or an invalid response fails
   * the call with an error that names the mock (and is logged), never a silent pass-through.
   */
  async function runResponseFunction(fn: MockResponseFunction, call: OutgoingCall, mock: CompiledMock, context: MockResponseContext): Promise<CompiledResponse | HarnessError> {
    const where = `the response function of mock ${mock.key}${mock.id === undefined ? '' : ` (id ${quote(mock.id)})`} for ${call.method} ${call.url.href} (test ${quote(context.testId)})`;
    let made: unknown;
    try {
      made = await fn((await call.toRequest()).clone(), context);
    } catch (error) {
      const message = `${where} threw: ${(error as Error)?.message ?? String(error)}. The call fails.`;
      logger.error(message, error);
      return new HarnessError('RESPONSE_FUNCTION_FAILED', `[scenario-harness] ${message[0]!.toUpperCase()}${message.slice(1)}`, { cause: error });
    }
    const checked = mockResponseSchema.safeParse(made ?? {});
    if (!checked.success || typeof made !== 'object' || made === null) {
      const problems = checked.success ? ['expected an object'] : checked.error.issues.map((issue) => `${issue.path.join('.') || 'response'}: ${issue.message}`);
      const message = `${where} returned an invalid response (${problems.join('; ')}). Return { status?, headers?, body? | bodyBase64? | stream?, delay?, error? }. The call fails.`;
      logger.error(message);
      return new HarnessError('RESPONSE_FUNCTION_FAILED', `[scenario-harness] ${message[0]!.toUpperCase()}${message.slice(1)}`);
    }
    try {
      return compileResponse(made as MockResponse, 'response');
    } catch (error) {
      const message = `${where} returned a response that cannot be used: ${(error as Error).message}. The call fails.`;
      logger.error(message);
      return new HarnessError('RESPONSE_FUNCTION_FAILED', `[scenario-harness] ${message[0]!.toUpperCase()}${message.slice(1)}`);
    }
  }

  async function unanswered(call: OutgoingCall, refusal?: string): Promise<CallOutcome> {
    const { url } = call;
    const lookup = lastLookup.get(call) ?? { testId: testIdOf(call), scenarioId: DEFAULT_SCENARIO_ID, layers: defaultLayers, state: EMPTY_STATE, startedAt: performance.now() };
    const record = (action: NonNullable<JournalEntry['unhandled']>, nearMisses: string[]) => journal?.unanswered(lookup.testId, call, action, lookup.startedAt, nearMisses);
    // The app's own servers and in-process test clients live on loopback: always let them through.
    // @note Not journaled: in an in-process test the runner's own requests to the app are
    // loopback calls too, and would fill every test's journal with its own control calls.
    if (loopbackPasses && isLoopbackWithoutLookup(url.hostname)) return PASS;
    if (refusal === undefined && isAllowedHost(url.hostname, portOf(url))) {
      await record('passed-through (allowHosts)', []);
      return PASS;
    }
    const nearMisses = await describeNearMisses(call, lookup.layers, lookup.state);
    if (unhandled === 'bypass' && refusal === undefined) {
      await record('passed-through', nearMisses);
      return PASS;
    }
    if (typeof unhandled === 'function' && refusal === undefined) {
      await record('passed-through', nearMisses);
      unhandled(await call.toRequest(), { testId: lookup.testId, scenarioId: lookup.scenarioId, nearMisses });
      return PASS;
    }
    const description = `${call.method} ${url.origin}${url.pathname}`;
    const where = `for test ${quote(lookup.testId)} in scenario ${quote(lookup.scenarioId)}`;
    const hints = nearMisses.length > 0 ? `\n  Nearest mocks:\n${nearMisses.map((line) => `    - ${line}`).join('\n')}` : '\n  No mock in this scenario or in "default" has this URL.';
    const fails = unhandled === 'error' || refusal !== undefined;
    await record(fails ? 'failed' : 'passed-through', nearMisses);
    if (fails) {
      const message =
        refusal === undefined
          ? `No mock answers ${description} ${where}; the call fails (unhandled: 'error'). Add a mock for it, or set unhandled to 'warn' or 'bypass'.${hints}`
          : `No mock answers ${description} ${where}, and it may not be passed on: ${refusal}. The call fails.${hints}`;
      logger.error(message);
      const error = new HarnessError('UNHANDLED_CALL', `[scenario-harness] ${message}`);
      return { kind: 'fail', error: Object.assign(error, { testId: lookup.testId, scenarioId: lookup.scenarioId, nearMisses }) };
    }
    if (warnedCalls.has(description)) return PASS;
    // Bounded: URLs with IDs in their paths would otherwise grow the set for as long as the app runs.
    if (warnedCalls.size >= 1000) warnedCalls.clear();
    warnedCalls.add(description);
    logger.warn(`No mock answers ${description} ${where}; it goes to the real network (unhandled: 'warn', logged once per endpoint). Add a mock for it, or set unhandled to 'bypass' to silence this.${hints}`);
    return PASS;
  }

  return {
    answer,
    answerNow,
    unanswered,
    blocksNetwork: unhandled === 'error',
    isAllowedHost,
    propagatesTo: (url) => isPropagatedHost(url.hostname, portOf(url)),
    logger,
  };
}

function portOf(url: URL): number {
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}
