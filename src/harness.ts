import { createHarnessCore, type Harness } from './core/create-harness.js';
import type { HarnessExtensions } from './core/extensions.js';
import type { HarnessOptions, ScenarioMap } from './core/types.js';
import { inspectorAnswer } from './inspector/inspector-answer.js';
import { listSessionsAnswer } from './inspector/list-sessions-answer.js';
import { scenarioDetails } from './inspector/scenario-details.js';

/**
 * The composition root: the core plus what plugs into it. The inspector's page, the
 * recorder's converter, the browser's answers and the contract checks load on first use only.
 */
const EXTENSIONS: HarnessExtensions = Object.freeze<HarnessExtensions>({
  inspector: Object.freeze({ page: inspectorAnswer, sessions: listSessionsAnswer, scenarioDetails }),
  // Loaded on the first recording only: nothing under record/ loads in an app that never records.
  draftRecording: async (exchanges, format, options) => (await import('./record/recording-draft.js')).recordingDraft(exchanges, format, options),
  // Loaded on the first browser call only: an app whose tests never route the browser through it never loads browser/.
  answerBrowserCall: async (call, testId, context) => (await import('./browser/answer-browser-call.js')).answerBrowserCall(call, testId, context),
  // Loaded by start() only when `contracts` is set: ajv, the OpenAPI parser and contracts/ never load otherwise.
  loadContracts: async (options, logger) => (await import('./contracts/load-contract-checker.js')).loadContractChecker(options, logger),
});

/**
 * Create a harness from scenario definitions. Definitions are validated here (also when
 * `defineScenarios()` checked them already): a mistake throws a `HarnessError`
 * (`INVALID_SCENARIOS`) naming the scenario, the mock and the field.
 *
 * An enabled harness must be started (`await harness.start()`) before the app serves
 * requests. One that was not is never silently inert (decisions/unstarted-harness.md): a
 * control request starts it (and warns), an app request is refused with a `NOT_STARTED`
 * error that says how to fix it, and a harness whose start failed answers control requests
 * 503 with the cause. Started, it logs one line: on, how many scenarios,
 * where the control endpoints are, and `unhandled`; disabled, it logs nothing unless
 * `announce: true`.
 *
 * @example
 * const harness = createHarness({ enabled: process.env.HARNESS_ENABLED === 'true', scenarios });
 * await harness.start();
 * app.use(harnessMiddleware(harness));
 * @see https://github.com/scenario-harness/scenario-harness#readme
 */
export function createHarness<const S extends ScenarioMap>(options: HarnessOptions<S>): Harness<S> {
  return createHarnessCore(options, EXTENSIONS);
}
