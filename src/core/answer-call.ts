import { DEFAULT_LIMITS, DEFAULT_SCENARIO_ID, DEFAULT_TEST_ID, TEST_ID_HEADER } from './constants.js';
import { quote, type Logger } from './dev-utils.js';
import { buildReply } from './engine/build-response.js';
import { instantReply } from './engine/instant-reply.js';
import type { CompiledScenario } from './engine/compile-scenarios.js';
import { describeNearMisses } from './engine/describe-near-misses.js';
import { hasMockFor } from './engine/has-mock-for.js';
import { resolveMock, resolveMockNow, type Resolution } from './engine/resolve-mock.js';
import { scenarioLayers } from './engine/scenario-layers.js';
import { HarnessError } from './errors.js';
import { compileHostList } from './host-list.js';
import { createMockReplier } from './mock-replier.js';
import { NOT_NOW, PASS, type CallListener, type CallOutcome, type ImmediateOutcome } from './interception/call-outcome.js';
import type { MockReply } from './interception/mock-reply.js';
import type { OutgoingCall } from './interception/outgoing-call.js';
import { EMPTY_STATE } from './store/apply-state-changes.js';
import type { SessionSnapshot, SessionStore } from './store/session-store.js';
import type { CallSteps } from './parts/call-steps.js';
import { storeNowOf } from './store/store-now.js';
import { tryGetTestId } from './test-context.js';
import type { UnhandledCallStrategy } from './types.js';
import { createUnansweredCall, portOf, type CallLookup } from './unanswered-call.js';

export interface CallAnswererOptions {
  scenarios: ReadonlyMap<string, CompiledScenario>;
  store: SessionStore;
  unhandled: UnhandledCallStrategy;
  logger: Logger;
  /** A call's own test-ID header longer than this is ignored. @default 256 */
  maxTestIdLength?: number;
  /** A `setState` that would take a test's state past this many bytes changes nothing (`limits.maxStateBytes`). @default 4194304 */
  maxStateBytes?: number;
  /** Hosts reached for real when no mock answers, like loopback (`allowHosts`). */
  allowHosts?: readonly (string | RegExp)[];
  /** Hosts whose calls carry the current test ID (`propagate.hosts`). */
  propagateHosts?: readonly (string | RegExp)[];
  /** What the harness's parts do on the call path (a test's own mocks, a recording, the contract checks, the journal). */
  steps: CallSteps;
  /**
   * Loopback calls no mock answers go through, whatever `unhandled` says: an app's own servers
   * and in-process test clients live there. `false` for the standalone server, whose calls come
   * from other processes and must not reach what listens on its loopback.
   * @default true
   */
  loopbackPasses?: boolean;
  /** `'instant'`: replies lose their `delay` and their streams' schedules (`createHarness({ timing })`). @default 'real' */
  timing?: 'instant' | 'real';
}

/**
 * The intercepted-call side of a harness: find the test, its scenario layers and the mock that
 * answers; build the reply; write `setState`; apply `unhandled` when nothing answers. Each step
 * is its own function below: `answer` (and `answerNow`, its synchronous fast path) → `reply`
 * (templates, response functions, `setState`) → the journal; `unanswered` for the rest.
 */
export function createCallListener(options: CallAnswererOptions): CallListener {
  const { scenarios, store, unhandled, logger, maxTestIdLength = DEFAULT_LIMITS.maxTestIdLength, maxStateBytes = DEFAULT_LIMITS.maxStateBytes, loopbackPasses = true } = options;
  const { layersFor, defaultLayers } = scenarioLayers(scenarios);
  const isAllowedHost = compileHostList(options.allowHosts ?? []);
  const isPropagatedHost = compileHostList(options.propagateHosts ?? []);
  /** Per unanswered call: where it was looked up, so `unanswered` can explain itself. */
  const lastLookup = new WeakMap<OutgoingCall, CallLookup>();
  const { take, layers: ownMocks, check: checkContract, record: journal, shape, upgrade } = options.steps;
  const timed: (reply: MockReply) => MockReply = options.timing === 'instant' ? instantReply : (reply) => reply;
  const readSessionNow = storeNowOf(store)?.read;
  const unansweredCall = createUnansweredCall({ unhandled, logger, journal, isAllowedHost, loopbackPasses });
  const { reply, warnBodyTooDeep } = createMockReplier({ store, logger, maxStateBytes });

  /** A streamed reply as this call sends it: a part may give the call its own copy (a test holding the stream). */
  function shapeStream(call: OutgoingCall, testId: string, mock: Resolution['mock'], made: MockReply): MockReply {
    return made.stream === undefined || shape === undefined ? made : shape.stream(call, testId, mock, made);
  }

  function testIdOf(call: OutgoingCall): string {
    // The call's own header (unless over-long), else the inbound request's async context, else the default.
    const header = call.header(TEST_ID_HEADER);
    return (header !== null && header.length <= maxTestIdLength && header) || tryGetTestId() || DEFAULT_TEST_ID;
  }

  /**
   * An HTTP Upgrade: a recording of 'all' relays every socket to the real server (keeping its
   * frames), then the test's socket mocks answer it, then a recording of 'missing' takes what they
   * do not; `undefined` leaves it to `unanswered`.
   */
  async function answerUpgrade(call: OutgoingCall, testId: string, session: SessionSnapshot | undefined): Promise<CallOutcome | undefined> {
    const outsideTest = call.header(TEST_ID_HEADER) === null && tryGetTestId() === undefined;
    const recorded = take?.wants(session, 'first') === true ? await take.take(call, testId, session) : undefined;
    if (recorded !== undefined) return recorded;
    const socket = upgrade === undefined ? undefined : await upgrade.answer(call, testId, session, { journal, outsideTest });
    if (socket !== undefined || take?.wants(session, 'unmatched') !== true) return socket;
    return take.take(call, testId, session);
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
      // An upgrade (a WebSocket handshake) is no call an HTTP mock answers, nor one a recording keeps: a socket mock, or else `unanswered`, decides.
      if (call.upgrade !== undefined) {
        const socket = await answerUpgrade(call, testId, session);
        if (socket === undefined) lastLookup.set(call, { testId, scenarioId: active?.scenarioId ?? DEFAULT_SCENARIO_ID, layers: [], state, startedAt });
        return socket;
      }
      // A part may take the call before its scenario does (a recording of 'all' passes every call on).
      if (take?.wants(session, 'first') === true) {
        const taken = await take.take(call, testId, session);
        if (taken !== undefined) return taken;
      }
      const base = layersFor(active?.scenarioId, active?.variant);
      const layers = session?.mocks === undefined || ownMocks === undefined ? base : await ownMocks.layers(testId, session.mocks, base);
      const resolution = await resolveMock({ call, testId, state, layers, store });
      if (resolution === undefined) {
        // Or after it found no mock (a recording of 'missing' passes on what the scenario cannot answer, whatever `unhandled` says).
        if (take?.wants(session, 'unmatched') === true) {
          const taken = await take.take(call, testId, session);
          if (taken !== undefined) return taken;
        }
        lastLookup.set(call, { testId, scenarioId: active?.scenarioId ?? DEFAULT_SCENARIO_ID, layers, state, startedAt });
        return undefined;
      }
      if (resolution.bodyTooDeep === true) warnBodyTooDeep(call, testId);
      const built = await reply(call, testId, session, resolution);
      if (built instanceof HarnessError) return { kind: 'fail', error: built };
      // Shaped before the journal: the journal keeps the key under which a part follows the stream.
      const made = shapeStream(call, testId, resolution.mock, timed(built));
      const contract = checkContract === undefined ? undefined : await checkContract.check(call, testId, made);
      if (journal !== undefined) {
        const { mock } = resolution;
        const step = mock.repeat === undefined ? undefined : mock.responses.indexOf(resolution.response);
        const nearMisses = journal.explainAnswered ? await describeNearMisses(call, layers, state) : undefined;
        await journal.answered(testId, call, { mock, step, reply: made, activeScenarioId: active?.scenarioId, contractViolations: contract?.violations }, startedAt, nearMisses);
      }
      // `onViolation: 'error'`: the journal shows what the mock would have answered; the app gets the failure.
      if (contract?.failure !== undefined) return { kind: 'fail', error: contract.failure };
      return { kind: 'reply', reply: made };
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
   * With `contracts` configured, a call with no body to read (GET, HEAD) is checked here too
   * (`checkNow`); any other is `NOT_NOW`: checking its request reads its body, which awaits. One
   * that breaks its contract under `onViolation: 'error'` is `NOT_NOW` as well (the asynchronous
   * path fails it).
   */
  function answerNow(call: OutgoingCall): ImmediateOutcome {
    if (readSessionNow === undefined || call.upgrade !== undefined || (journal !== undefined && (journal.explainAnswered || !journal.recordsNow(call)))) return NOT_NOW;
    try {
      const startedAt = performance.now();
      const testId = testIdOf(call);
      const session = readSessionNow(testId);
      if (take !== undefined && (take.wants(session, 'first') || take.wants(session, 'unmatched'))) return NOT_NOW;
      const active = session?.active;
      const state = session?.state ?? EMPTY_STATE;
      const base = layersFor(active?.scenarioId, active?.variant);
      // A test with mocks of its own: compiled already (the add primed them), or the asynchronous path compiles them.
      const layers = session?.mocks === undefined || ownMocks === undefined ? base : ownMocks.layersNow(testId, session.mocks, base);
      if (layers === undefined) return NOT_NOW;
      const resolution = resolveMockNow(call, layers, state);
      if (resolution === undefined || resolution === NOT_NOW) return NOT_NOW;
      const { mock, response } = resolution;
      if (mock.setState !== undefined || response.dynamic !== undefined) return NOT_NOW;
      const reply = shapeStream(call, testId, mock, timed(response.fixedReply ?? buildReply(response, { params: resolution.params, url: call.url, headers: call.headers, body: undefined, state, variant: active?.variant })));
      if (checkContract === undefined) {
        void journal?.answered(testId, call, { mock, step: undefined, reply, activeScenarioId: active?.scenarioId }, startedAt);
        return { kind: 'reply', reply };
      }
      const contract = checkContract.checkNow(call, testId, reply);
      // A call that fails its contract (`onViolation: 'error'`) is failed, and journaled, by the asynchronous path.
      if (contract === NOT_NOW || contract?.failure !== undefined) return NOT_NOW;
      void journal?.answered(testId, call, { mock, step: undefined, reply, activeScenarioId: active?.scenarioId, contractViolations: contract?.violations }, startedAt);
      return { kind: 'reply', reply };
    } catch {
      return NOT_NOW;
    }
  }

  function unanswered(call: OutgoingCall, refusal?: string): Promise<CallOutcome> {
    const lookup = lastLookup.get(call) ?? { testId: testIdOf(call), scenarioId: DEFAULT_SCENARIO_ID, layers: defaultLayers, state: EMPTY_STATE, startedAt: performance.now() };
    return unansweredCall(call, lookup, refusal);
  }

  async function mocksUrl(call: OutgoingCall, method: string): Promise<boolean> {
    const testId = testIdOf(call);
    const session = await store.read(testId);
    const base = layersFor(session?.active?.scenarioId, session?.active?.variant);
    const layers = session?.mocks === undefined || ownMocks === undefined ? base : await ownMocks.layers(testId, session.mocks, base);
    return hasMockFor(call.url, method, layers);
  }

  return {
    answer,
    answerNow,
    unanswered,
    mocksUrl,
    blocksNetwork: unhandled === 'error',
    isAllowedHost,
    allowHosts: options.allowHosts ?? [],
    propagatesTo: (url) => isPropagatedHost(url.hostname, portOf(url)),
    logger,
  };
}

