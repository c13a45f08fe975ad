import { DEFAULT_ENDPOINTS, DEFAULT_LIMITS, HINT_HEADER, TEST_ID_HEADER } from '../constants.js';
import { quote } from '../dev-utils.js';
import { readTestId } from '../read-test-id.js';
import type { ActiveScenario, HarnessEndpoints, ScenarioSummary } from '../types.js';
import { unknownScenarioHint } from '../unknown-scenario-hint.js';
import { unknownKeysMessage } from '../unknown-keys-message.js';
import type { JournalEntry, JournalFilter } from '../journal/journal-entry.js';
import { urlFilterProblem } from '../journal/url-filter.js';
import type { SessionStore } from '../store/session-store.js';
import { isHarnessError } from '../errors.js';
import type { InspectorExtension } from '../extensions.js';
import type { RecordingDraft } from '../recording/recording-draft.js';
import type { RecordMode } from '../recording/recorded-exchange.js';
import { appReadinessAnswer } from './app-readiness.js';
import { CONTROL_ROUTES, routeMethod, routePaths, type ControlRoute } from './control-routes.js';
import { jsonAnswer, type ControlAnswer, type ControlCall } from './control-call.js';
import { toErrorAnswer } from './json-response.js';
import { hintHeaderValue } from './hint-header.js';
import { parseSwitchRequestBody, switchRequestBodySchema } from './switch-request-body.js';
import { testMocksRoute } from './test-mocks-route.js';
import type { TestMocks } from '../test-mocks/create-test-mocks.js';

/** What the control endpoints act on: the harness, seen through the few calls they make. */
export interface ControlTarget {
  /** Switch, and say why the switch may not do what was meant (an undeclared variant), if it may not. */
  switchScenario(testId: string, scenarioId: string, variant?: string): Promise<{ warning?: string }>;
  getActiveScenario(testId: string): Promise<ActiveScenario | undefined>;
  getState(testId: string): Promise<Record<string, unknown>>;
  endTest(testId: string): Promise<void>;
  scenarioName(scenarioId: string): string | undefined;
  isRegistered(scenarioId: string): boolean;
  /** The scenario catalogue, in registration order. */
  listScenarios(): readonly ScenarioSummary[];
  /** Start or stop recording (`undefined`: the store cannot record). */
  setRecording?(testId: string, mode: RecordMode | undefined): Promise<void>;
  /** The test's recording: its mode, how many calls it kept, and the draft scenario file made of them. */
  recording?(testId: string, options: { stop: boolean; format: 'json' | 'yaml' }): Promise<{ mode: RecordMode | undefined; exchanges: number } & RecordingDraft>;
  /** The test's journal (`undefined`: the journal is off). */
  getCalls?(testId: string, filter: JournalFilter): Promise<JournalEntry[]>;
  clearCalls?(testId: string): Promise<void>;
  /** The catalogue with every scenario's mocks (`?mocks=true`; `undefined`: no inspector plugged in). */
  scenarioDetails(): readonly unknown[] | undefined;
  /** One page of live test IDs (`undefined`: the store cannot list them). */
  listSessions?: SessionStore['listSessions'];
  /** The tests' own mocks (`endpoints.mocks`). */
  testMocks: TestMocks;
  /** Merge keys into a test's state; the state after it, what is wrong with `state`, or why it would take the state past `limits.maxStateBytes`. */
  seedState(testId: string, state: unknown): Promise<{ state: Record<string, unknown> } | { problem: string } | { refused: { error: string; hint: string } }>;
  /** Answer a call the test's browser made (`endpoints.answer`; `undefined`: no browser side plugged in). */
  answerBrowserCall?(call: ControlCall, testId: string): Promise<ControlAnswer>;
}

export interface ControlOptions {
  endpoints?: HarnessEndpoints;
  /** Largest control request body, in bytes. @default 65536 */
  maxBodyBytes?: number;
  /** Longest test ID, in characters; a longer one is a 400. @default 256 */
  maxTestIdLength?: number;
  logError(message: string, error: unknown): void;
  /** Where a switch's help goes besides the `x-harness-hint` header: an unknown scenario, an ignored key. */
  logWarn?(message: string): void;
  /** The inspector's pages; without it, the inspector paths answer a 404 that says so. */
  inspector?: InspectorExtension;
}

/** A handler for the control endpoints: a control request's answer, or `null` for any other request. */
export type ControlRequestHandler = (call: ControlCall) => Promise<ControlAnswer | null>;

/** The 404 of the inspector's paths on a harness created without it. */
function inspectorMissing(pathname: string): ControlAnswer {
  return jsonAnswer({ error: `${pathname} is the inspector's, and this harness was created without it.` }, 404);
}

/** `?method=POST&url=*\/v1/charges&unanswered=true&mockId=x` → a journal filter. */
function journalFilterOf(search: string): JournalFilter {
  const params = new URLSearchParams(search);
  const filter: JournalFilter = {};
  const method = params.get('method');
  const url = params.get('url');
  const mockId = params.get('mockId');
  if (method !== null && method !== '') filter.method = method;
  if (url !== null && url !== '') filter.url = url;
  if (mockId !== null && mockId !== '') filter.mockId = mockId;
  if (params.get('unanswered') === 'true') filter.unanswered = true;
  return filter;
}

/**
 * Build the control endpoints of SPEC §4 as one Fetch handler; every framework adapter calls
 * it, which is how they all behave the same (SPEC §4).
 */
export function createControlRequestHandler(target: ControlTarget, options: ControlOptions): {
  handle: ControlRequestHandler;
  isControlPath(pathname: string): boolean;
} {
  const endpoints = { ...DEFAULT_ENDPOINTS, ...options.endpoints };
  const { maxBodyBytes = DEFAULT_LIMITS.maxBodyBytes, maxTestIdLength = DEFAULT_LIMITS.maxTestIdLength } = options;
  const routes = CONTROL_ROUTES.map((route) => ({ route, paths: routePaths(route, endpoints) }));
  const paths = new Set(routes.flatMap(({ paths: own }) => own));
  let page: Promise<ControlAnswer> | undefined;

  async function switchScenario(call: ControlCall, testId: string): Promise<ControlAnswer> {
    const body = await call.readJson(maxBodyBytes);
    if (!body.ok) {
      return body.status === 413
        ? jsonAnswer({ error: 'Request body too large' }, 413)
        : jsonAnswer({ error: 'Invalid request body', details: [body.issue] }, 400);
    }
    const parsed = parseSwitchRequestBody(body.value);
    if (!parsed.success) return jsonAnswer({ error: 'Invalid request body', details: parsed.issues }, 400);
    const { scenario, variant } = parsed.data;
    if (!target.isRegistered(scenario)) {
      // @note SPEC §4.1 fixes the body to `{ error }` word for word (conformance suites compare it
      // whole), so the suggestion goes in the `x-harness-hint` header and the log.
      const registered = target.listScenarios().map(({ id }) => id);
      const hint = unknownScenarioHint(scenario, registered, endpoints.scenarios);
      options.logWarn?.(`Test ${quote(testId)} asked for scenario ${quote(scenario)}, which is not registered. ${hint}`);
      return jsonAnswer({ error: `Scenario '${scenario}' not found. Did you forget to register it?` }, 400, { [HINT_HEADER]: hintHeaderValue(hint) });
    }
    const { warning } = await target.switchScenario(testId, scenario, variant);
    // @note SPEC §2 has the switch accept any variant, and §4.1 fixes the body's fields; what the
    // switch may not do as meant goes in the `x-harness-hint` header (the target logged its part).
    const ignored = parsed.unknownKeys.length === 0 ? undefined : `Ignored ${unknownKeysMessage(parsed.unknownKeys, Object.keys(switchRequestBodySchema.shape))}.`;
    if (ignored !== undefined) options.logWarn?.(`Test ${quote(testId)} switched to scenario ${quote(scenario)}. ${ignored}`);
    const hints = [...(ignored === undefined ? [] : [ignored]), ...(warning === undefined ? [] : [warning])];
    return jsonAnswer(
      { success: true, testId, scenarioId: scenario, ...(variant === undefined ? {} : { variant }) },
      200,
      hints.length === 0 ? undefined : { [HINT_HEADER]: hintHeaderValue(hints.join(' ')) },
    );
  }

  async function getScenario(testId: string): Promise<ControlAnswer> {
    const active = await target.getActiveScenario(testId);
    if (active === undefined) return jsonAnswer({ error: 'No active scenario for this test ID', testId }, 404);
    const scenarioName = target.scenarioName(active.scenarioId);
    return jsonAnswer({
      testId,
      scenarioId: active.scenarioId,
      ...(scenarioName === undefined ? {} : { scenarioName }),
      ...(active.variant === undefined ? {} : { variant: active.variant }),
    });
  }

  /** POST { mode: 'missing' | 'all' } starts recording; GET shows the draft; DELETE stops and hands the draft over. */
  async function record(call: ControlCall, testId: string): Promise<ControlAnswer> {
    if (target.setRecording === undefined || target.recording === undefined) {
      return jsonAnswer({ error: 'Recording is not available: the session store keeps no recordings (it needs setRecording, appendRecorded and readRecorded).' }, 404);
    }
    if (call.method === 'POST') {
      const body = await call.readJson(maxBodyBytes);
      if (!body.ok) return body.status === 413 ? jsonAnswer({ error: 'Request body too large' }, 413) : jsonAnswer({ error: 'Invalid request body', details: [body.issue] }, 400);
      const mode = (body.value as { mode?: unknown } | null)?.mode ?? 'missing';
      if (mode !== 'missing' && mode !== 'all') {
        return jsonAnswer({ error: `Invalid request body: "mode" must be "missing" (the scenario answers what it can, the rest is recorded) or "all" (every call is recorded), instead got ${JSON.stringify(mode)}.` }, 400);
      }
      await target.setRecording(testId, mode);
      return jsonAnswer({ success: true, testId, mode });
    }
    const format = new URLSearchParams(call.search).get('format') === 'yaml' ? 'yaml' : 'json';
    try {
      const { mode, exchanges, scenarios, redactions, notes, fileText } = await target.recording(testId, { stop: call.method === 'DELETE', format });
      return jsonAnswer({ testId, mode: call.method === 'DELETE' ? null : (mode ?? null), exchanges, scenarios, redactions, notes, fileText });
    } catch (error) {
      // A secret still in the draft: say where (never what), and hand nothing over.
      if (isHarnessError(error) && error.code === 'SECRET_LEAK') return jsonAnswer({ error: error.message, testId }, 422);
      throw error;
    }
  }

  /** POST { state } on the state path: seed keys into the test's state (a switch still clears it, SPEC §3). */
  async function seedState(call: ControlCall, testId: string): Promise<ControlAnswer> {
    const body = await call.readJson(maxBodyBytes);
    if (!body.ok) return body.status === 413 ? jsonAnswer({ error: 'Request body too large' }, 413) : jsonAnswer({ error: 'Invalid request body', details: [body.issue] }, 400);
    const value = body.value as Record<string, unknown> | null;
    const extra = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value).filter((key) => key !== 'state') : [];
    if (extra.length > 0) return jsonAnswer({ error: `Invalid request body: ${unknownKeysMessage(extra, ['state'])}`, details: extra.map((key) => ({ path: [key], message: 'unknown key' })) }, 400);
    const seeded = await target.seedState(testId, value?.state);
    if ('problem' in seeded) return jsonAnswer({ error: `Invalid request body: ${seeded.problem}.`, details: [{ path: ['state'], message: seeded.problem }] }, 400);
    if ('refused' in seeded) return jsonAnswer({ error: seeded.refused.error }, 413, { [HINT_HEADER]: hintHeaderValue(seeded.refused.hint) });
    return jsonAnswer({ testId, state: seeded.state });
  }

  async function journal(call: ControlCall, testId: string): Promise<ControlAnswer> {
    if (target.getCalls === undefined || target.clearCalls === undefined) {
      return jsonAnswer({ error: 'The journal is off: this harness keeps no calls (createHarness({ journal: false }), or a store without appendCall/readCalls).' }, 404);
    }
    if (call.method === 'DELETE') {
      await target.clearCalls(testId);
      return jsonAnswer({ success: true, testId });
    }
    const filter = journalFilterOf(call.search);
    const problem = filter.url === undefined ? undefined : urlFilterProblem(filter.url);
    if (problem !== undefined) return jsonAnswer({ error: `Invalid journal filter: ${problem}.` }, 400);
    return jsonAnswer({ testId, calls: await target.getCalls(testId, filter) });
  }

  /** What each endpoint answers, once the route table found it for the call's path and method. */
  const answers: Record<ControlRoute['endpoint'], (call: ControlCall, testId: string, pathname: string) => Promise<ControlAnswer>> = {
    async setScenario(call, testId) {
      if (call.method === 'POST') return switchScenario(call, testId);
      await target.endTest(testId);
      return jsonAnswer({ success: true, testId });
    },
    getScenario: (_call, testId) => getScenario(testId),
    async getState(call, testId) {
      if (call.method === 'POST') return seedState(call, testId);
      return jsonAnswer({ testId, state: await target.getState(testId) });
    },
    mocks: (call, testId) => testMocksRoute(call, testId, target.testMocks, maxBodyBytes),
    async answer(call, testId, pathname) {
      if (target.answerBrowserCall === undefined) return jsonAnswer({ error: `${pathname} answers the browser's own calls, and this harness was created without that part.` }, 404);
      return target.answerBrowserCall(call, testId);
    },
    async scenarios(call) {
      const params = new URLSearchParams(call.search);
      const ready = params.get('ready');
      // `?ready`: the same catalogue, once the app itself serves (app-readiness.ts).
      const readiness = ready === null ? undefined : await appReadinessAnswer(call, ready, endpoints.scenarios, (path) => paths.has(path));
      if (readiness !== undefined) return readiness.answer;
      const withMocks = params.get('mocks') === 'true';
      return jsonAnswer({ scenarios: (withMocks ? target.scenarioDetails() : undefined) ?? target.listScenarios() });
    },
    journal: (call, testId) => journal(call, testId),
    record: (call, testId) => record(call, testId),
    async sessions(call, _testId, pathname) {
      if (options.inspector === undefined) return inspectorMissing(pathname);
      return options.inspector.sessions(target, call.search, pathname);
    },
    async inspector(_call, _testId, pathname) {
      if (options.inspector === undefined) return inspectorMissing(pathname);
      page ??= options.inspector.page({ endpoints, testIdHeader: TEST_ID_HEADER, journal: target.getCalls !== undefined });
      return page;
    },
  };

  async function route(call: ControlCall, pathname: string): Promise<ControlAnswer | null> {
    const testId = readTestId({ [TEST_ID_HEADER]: call.header(TEST_ID_HEADER) ?? undefined, baggage: call.header('baggage') ?? undefined });
    if (testId.length > maxTestIdLength) {
      return jsonAnswer(
        { error: `Test ID too long: the ${TEST_ID_HEADER} header has ${testId.length} characters, the limit is ${maxTestIdLength} (limits.maxTestIdLength). Use a shorter test ID, such as a UUID.` },
        400,
      );
    }
    const { method } = call;
    const onPath = routes.filter(({ paths: own }) => own.includes(pathname)).map(({ route }) => route);
    const found = onPath.find(({ methods }) => (methods as readonly string[]).includes(routeMethod(method)));
    if (found !== undefined) return answers[found.endpoint](call, testId, pathname);
    const allowed = [...new Set(onPath.flatMap(({ methods }) => methods))];
    return jsonAnswer({ error: `Method ${method} is not allowed on ${pathname}. Use ${allowed.join(', ')}.` }, 405, { allow: allowed.join(', ') });
  }

  return {
    isControlPath: (pathname) => paths.has(pathname),
    async handle(call) {
      if (!paths.has(call.pathname)) return null;
      try {
        return await route(call, call.pathname);
      } catch (error) {
        return toErrorAnswer(error, options.logError);
      } finally {
        // A body the endpoint did not read (GET, 405, a refused test ID) would stall the connection.
        call.discard();
      }
    },
  };
}
