import { DEFAULT_LIMITS, DEFAULT_SCENARIO_ID, DEFAULT_TEST_ID, TEST_ID_HEADER } from './constants.js';
import { quote, type Logger } from './dev-utils.js';
import { buildResponse } from './engine/build-response.js';
import { evaluateStateChanges } from './engine/compile-mock.js';
import type { CompiledScenario } from './engine/compile-scenarios.js';
import type { MockIndex } from './engine/mock-index.js';
import { resolveMock } from './engine/resolve-mock.js';
import type { TemplateContext } from './engine/template.js';
import type { CallController, CallListener } from './interception.js';
import { isLoopback } from './is-loopback.js';
import { describeNearMisses } from './engine/describe-near-misses.js';
import { EMPTY_STATE } from './store/apply-state-changes.js';
import type { SessionStore } from './store/session-store.js';
import { tryGetTestId } from './test-context.js';
import type { UnhandledCallStrategy } from './types.js';

export interface CallAnswererOptions {
  scenarios: ReadonlyMap<string, CompiledScenario>;
  store: SessionStore;
  unhandled: UnhandledCallStrategy;
  logger: Logger;
  /** A call's own test-ID header longer than this is ignored. @default 256 */
  maxTestIdLength?: number;
}

const NO_LAYERS: readonly MockIndex[] = [];

/**
 * The intercepted-call side of a harness: find the test, its scenario layers and the mock that
 * answers; build the response; write `setState`; apply `unhandled` when nothing answers.
 */
export function createCallListener({ scenarios, store, unhandled, logger, maxTestIdLength = DEFAULT_LIMITS.maxTestIdLength }: CallAnswererOptions): CallListener {
  const fallback = scenarios.get(DEFAULT_SCENARIO_ID);
  const defaultLayers: readonly MockIndex[] = fallback ? [fallback.mocks] : NO_LAYERS;
  const warnedCalls = new Set<string>();
  /** Per unanswered request: the test and layers it was looked up in, so `unanswered` can explain itself. */
  const lastLookup = new WeakMap<Request, { testId: string; scenarioId: string; layers: readonly MockIndex[] }>();

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

  async function answer(request: Request, controller: CallController): Promise<boolean> {
    try {
      return await answerFromScenario(request, controller);
    } catch (error) {
      // A failing store (Redis down) must not silently send the call to the real network.
      const fails = unhandled === 'error';
      logger.error(
        `Failed to answer ${request.method} ${request.url} from its scenario: ${(error as Error).message.replace(/\.$/, '')}. The call ${fails ? "fails with a network error (unhandled: 'error')" : 'goes to the real network'}.`,
      );
      if (fails) controller.respondWith(Response.error());
      return true;
    }
  }

  async function answerFromScenario(request: Request, controller: CallController): Promise<boolean> {
    // Test ID: the call's own header (unless over-long), else the inbound request's async context, else the default.
    const header = request.headers.get(TEST_ID_HEADER);
    const testId = (header !== null && header.length <= maxTestIdLength && header) || tryGetTestId() || DEFAULT_TEST_ID;
    // The session must outlive the call: the store may not evict it between these awaits.
    const unpin = store.pin?.(testId);
    try {
      return await answerWithSession(request, controller, testId);
    } finally {
      unpin?.();
    }
  }

  async function answerWithSession(request: Request, controller: CallController, testId: string): Promise<boolean> {
    const session = await store.read(testId);
    const active = session?.active;
    const state = session?.state ?? EMPTY_STATE;
    const layers = layersFor(active?.scenarioId, active?.variant);
    const url = new URL(request.url);
    const resolution = await resolveMock({ request, url, testId, state, layers, store });
    if (resolution === undefined) {
      lastLookup.set(request, { testId, scenarioId: active?.scenarioId ?? DEFAULT_SCENARIO_ID, layers });
      return false;
    }
    const context: TemplateContext = { params: resolution.params, url, headers: request.headers, body: resolution.body, state, variant: active?.variant };
    const { response: answer, mock } = resolution;
    const response = answer.networkError ? Response.error() : buildResponse(answer, context);
    if (mock.setState !== undefined) await store.updateState(testId, evaluateStateChanges(mock, context));
    if (answer.delay > 0) await new Promise((resolve) => setTimeout(resolve, answer.delay));
    controller.respondWith(response);
    return true;
  }

  async function unanswered(request: Request, controller: CallController): Promise<void> {
    const url = new URL(request.url);
    // The app's own servers and in-process test clients live on loopback: always let them through.
    if (isLoopback(url.hostname) || unhandled === 'bypass') return;
    const lookup = lastLookup.get(request) ?? { testId: tryGetTestId() ?? DEFAULT_TEST_ID, scenarioId: DEFAULT_SCENARIO_ID, layers: defaultLayers };
    const nearMisses = describeNearMisses(request, url, lookup.layers);
    if (typeof unhandled === 'function') {
      unhandled(request, { testId: lookup.testId, scenarioId: lookup.scenarioId, nearMisses });
      return;
    }
    const call = `${request.method} ${url.origin}${url.pathname}`;
    const where = `for test ${quote(lookup.testId)} in scenario ${quote(lookup.scenarioId)}`;
    const hints = nearMisses.length > 0 ? `\n  Nearest mocks:\n${nearMisses.map((line) => `    - ${line}`).join('\n')}` : '';
    if (unhandled === 'error') {
      logger.error(`No mock answers ${call} ${where}; the call fails with a network error (unhandled: 'error'). Add a mock for it, or set unhandled to 'warn' or 'bypass'.${hints}`);
      controller.respondWith(Response.error());
      return;
    }
    if (warnedCalls.has(call)) return;
    // Bounded: URLs with IDs in their paths would otherwise grow the set for as long as the app runs.
    if (warnedCalls.size >= 1000) warnedCalls.clear();
    warnedCalls.add(call);
    logger.warn(`No mock answers ${call} ${where}; it goes to the real network (unhandled: 'warn', logged once per endpoint). Add a mock for it, or set unhandled to 'bypass' to silence this.${hints}`);
  }

  return { answer, unanswered };
}
