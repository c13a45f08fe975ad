// Minimal Express glue for Scenarist, built only from its published packages
// @scenarist/core and @scenarist/msw-adapter (the express adapter itself is not
// used). It mirrors what @scenarist/express-adapter does: a scenario manager with
// in-memory registry/store/state/sequences, a response selector, ONE MSW handler
// (createDynamicHandler) in setupServer, a middleware that puts the test ID from
// `x-scenarist-test-id` into AsyncLocalStorage, and POST/GET /__scenario__.
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  buildConfig,
  createScenarioManager,
  createResponseSelector,
  InMemoryScenarioRegistry,
  InMemoryScenarioStore,
  createInMemorySequenceTracker,
  createInMemoryStateManager,
  noOpLogger,
  ScenarioRequestSchema,
  SCENARIST_TEST_ID_HEADER,
} from '@scenarist/core';
import { createDynamicHandler } from '@scenarist/msw-adapter';
import { setupServer } from 'msw/node';
import { MOCK_ORIGIN } from './workloads.js';

/** Neutral workload scenarios -> Scenarist scenarios object (needs a `default`). */
export function toScenaristScenarios(neutral) {
  const out = { default: { id: 'default', name: 'Default', description: '', mocks: [] } };
  for (const sc of neutral) {
    out[sc.id] = {
      id: sc.id,
      name: sc.id,
      description: '',
      mocks: sc.mocks.map((m) => ({
        method: m.method,
        url: MOCK_ORIGIN + m.path,
        ...(m.matchBody ? { match: { body: m.matchBody } } : {}),
        response: { status: 200, body: m.body },
      })),
    };
  }
  return out;
}

export function createScenaristGlue({ scenarios }) {
  const config = buildConfig({ enabled: true, scenarios });
  const logger = noOpLogger;
  const registry = new InMemoryScenarioRegistry();
  const store = new InMemoryScenarioStore();
  const stateManager = createInMemoryStateManager();
  const sequenceTracker = createInMemorySequenceTracker();
  const manager = createScenarioManager({ registry, store, stateManager, sequenceTracker, logger });
  for (const sc of Object.values(scenarios)) manager.registerScenario(sc);
  const responseSelector = createResponseSelector({ sequenceTracker, stateManager, logger });
  const testIdStorage = new AsyncLocalStorage();

  const handler = createDynamicHandler({
    getTestId: () => testIdStorage.getStore() ?? config.defaultTestId,
    getActiveScenario: (testId) => manager.getActiveScenario(testId),
    getScenarioDefinition: (id) => manager.getScenarioById(id),
    strictMode: config.strictMode,
    responseSelector,
    errorBehaviors: config.errorBehaviors,
    logger,
  });
  const server = setupServer(handler);

  const headerName = SCENARIST_TEST_ID_HEADER;
  const testIdOf = (req) => {
    const h = req.headers[headerName];
    if (typeof h === 'string') return h;
    if (Array.isArray(h) && h.length > 0 && h[0]) return h[0];
    return config.defaultTestId;
  };

  /** Express middleware: control endpoints + test-ID context for everything else. */
  const middleware = (req, res, next) => {
    const testId = testIdOf(req);
    if (req.path === config.endpoints.setScenario && req.method === 'POST') {
      const parsed = ScenarioRequestSchema.safeParse(req.body);
      if (!parsed.success) {
        res.status(400).json({ error: 'Invalid request body', details: parsed.error.issues });
        return;
      }
      const { scenario } = parsed.data;
      const result = manager.switchScenario(testId, scenario);
      if (!result.success) {
        res.status(400).json({ error: result.error.message });
        return;
      }
      res.status(200).json({ success: true, testId, scenarioId: scenario });
      return;
    }
    if (req.path === config.endpoints.getScenario && req.method === 'GET') {
      const active = manager.getActiveScenario(testId);
      if (!active) {
        res.status(404).json({ error: 'No active scenario for this test ID', testId });
        return;
      }
      const def = manager.getScenarioById(active.scenarioId);
      res.status(200).json({ testId, scenarioId: active.scenarioId, ...(def && { scenarioName: def.name }) });
      return;
    }
    testIdStorage.run(testId, () => next());
  };

  return {
    config,
    manager,
    middleware,
    testIdStorage,
    headerName,
    start: () => server.listen({ onUnhandledRequest: 'bypass' }),
    stop: () => server.close(),
  };
}
