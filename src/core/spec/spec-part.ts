import { HINT_HEADER } from '../constants.js';
import { quote } from '../dev-utils.js';
import { appReadinessAnswer } from '../control/app-readiness.js';
import { jsonAnswer, type ControlAnswer } from '../control/control-call.js';
import type { ControlRoute } from '../control/control-routes.js';
import { hintHeaderValue } from '../control/hint-header.js';
import { parseSwitchRequestBody, switchRequestBodySchema } from '../control/switch-request-body.js';
import { answerRoutes, type PartContext, type PartDefinition, type RouteRequest } from '../parts/harness-part.js';
import { unknownKeysMessage } from '../unknown-keys-message.js';
import { unknownScenarioHint } from '../unknown-scenario-hint.js';

const ROUTES: readonly ControlRoute[] = [
  { endpoint: 'setScenario', methods: ['POST', 'DELETE'], listed: 'when-on', access: 'guarded', bodyLimit: 'maxBodyBytes' },
  { endpoint: 'getScenario', methods: ['GET'], listed: 'when-on', access: 'guarded', bodyLimit: 'none' },
  { endpoint: 'getState', methods: ['GET', 'POST'], listed: 'when-on', access: 'guarded', bodyLimit: 'maxBodyBytes' },
  { endpoint: 'scenarios', methods: ['GET'], listed: 'when-on', access: 'guarded', bodyLimit: 'none' },
];

/** `POST` on the switch path (SPEC §4.1): select a scenario, and a variant, for the header's test. */
async function switchScenario({ testId, readBody }: RouteRequest, { sessions, scenarios, endpoints, logger }: PartContext): Promise<ControlAnswer> {
  const body = await readBody();
  if (!body.ok) return body.answer;
  const parsed = parseSwitchRequestBody(body.value);
  if (!parsed.success) return jsonAnswer({ error: 'Invalid request body', details: parsed.issues }, 400);
  const { scenario, variant } = parsed.data;
  if (!scenarios.compiled.has(scenario)) {
    // @note SPEC §4.1 fixes the body to `{ error }` word for word (conformance suites compare it
    // whole), so the suggestion goes in the `x-harness-hint` header and the log.
    const hint = unknownScenarioHint(scenario, [...scenarios.compiled.keys()], endpoints.scenarios);
    logger.warn(`Test ${quote(testId)} asked for scenario ${quote(scenario)}, which is not registered. ${hint}`);
    return jsonAnswer({ error: `Scenario '${scenario}' not found. Did you forget to register it?` }, 400, { [HINT_HEADER]: hintHeaderValue(hint) });
  }
  const { warning } = await sessions.activate(testId, scenario, variant);
  // @note SPEC §2 has the switch accept any variant, and §4.1 fixes the body's fields; what the
  // switch may not do as meant goes in the `x-harness-hint` header (the sessions logged their part).
  const ignored = parsed.unknownKeys.length === 0 ? undefined : `Ignored ${unknownKeysMessage(parsed.unknownKeys, Object.keys(switchRequestBodySchema.shape))}.`;
  if (ignored !== undefined) logger.warn(`Test ${quote(testId)} switched to scenario ${quote(scenario)}. ${ignored}`);
  const hints = [...(ignored === undefined ? [] : [ignored]), ...(warning === undefined ? [] : [warning])];
  return jsonAnswer({ success: true, testId, scenarioId: scenario, ...(variant === undefined ? {} : { variant }) }, 200, hints.length === 0 ? undefined : { [HINT_HEADER]: hintHeaderValue(hints.join(' ')) });
}

/** `GET` on the scenario path (SPEC §4.2). */
async function activeScenario(testId: string, { sessions, scenarios }: PartContext): Promise<ControlAnswer> {
  const active = await sessions.getActiveScenario(testId);
  if (active === undefined) return jsonAnswer({ error: 'No active scenario for this test ID', testId }, 404);
  const scenarioName = scenarios.compiled.get(active.scenarioId)?.name;
  return jsonAnswer({ testId, scenarioId: active.scenarioId, ...(scenarioName === undefined ? {} : { scenarioName }), ...(active.variant === undefined ? {} : { variant: active.variant }) });
}

/** `POST { state }` on the state path: seed keys into the test's state (a switch still clears it, SPEC §3). */
async function seedState({ testId, readBody }: RouteRequest, { sessions }: PartContext): Promise<ControlAnswer> {
  const body = await readBody();
  if (!body.ok) return body.answer;
  const value = body.value as Record<string, unknown> | null;
  const extra = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value).filter((key) => key !== 'state') : [];
  if (extra.length > 0) return jsonAnswer({ error: `Invalid request body: ${unknownKeysMessage(extra, ['state'])}`, details: extra.map((key) => ({ path: [key], message: 'unknown key' })) }, 400);
  const seeded = await sessions.seedState(testId, value?.state);
  if ('problem' in seeded) return jsonAnswer({ error: `Invalid request body: ${seeded.problem}.`, details: [{ path: ['state'], message: seeded.problem }] }, 400);
  if ('refused' in seeded) return jsonAnswer({ error: seeded.refused.error }, 413, { [HINT_HEADER]: hintHeaderValue(seeded.refused.hint) });
  return jsonAnswer({ testId, state: seeded.state });
}

/** `GET` on the catalogue path: the scenarios (`?mocks=true`: with their mocks; `?ready`: once the app itself serves, app-readiness.ts). */
async function catalogue({ call }: RouteRequest, context: PartContext): Promise<ControlAnswer> {
  const params = new URLSearchParams(call.search);
  const ready = params.get('ready');
  const readiness = ready === null ? undefined : await appReadinessAnswer(call, ready, context.endpoints.scenarios, context.isControlPath);
  if (readiness !== undefined) return readiness.answer;
  const details = params.get('mocks') === 'true' ? context.scenarioDetails() : undefined;
  return jsonAnswer({ scenarios: details ?? context.scenarios.catalogue });
}

/** The SPEC's own routes (switch, active scenario, state, catalogue): the core's part, in every harness. */
export const SPEC_PART: PartDefinition = {
  name: 'the SPEC endpoints',
  routes: ROUTES,
  create(context) {
    return {
      routes: answerRoutes(ROUTES, {
        async setScenario(request) {
          if (request.call.method === 'POST') return switchScenario(request, context);
          await context.sessions.endTest(request.testId);
          return jsonAnswer({ success: true, testId: request.testId });
        },
        getScenario: ({ testId }) => activeScenario(testId, context),
        async getState(request) {
          if (request.call.method === 'POST') return seedState(request, context);
          return jsonAnswer({ testId: request.testId, state: await context.sessions.stateOverHttp(request.testId) });
        },
        scenarios: (request) => catalogue(request, context),
      }),
    };
  },
};
