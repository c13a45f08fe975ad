import type { ControlAnswer, ControlCall } from './control/control-call.js';
import type { ContractChecker, ContractsOptions } from './contract-check.js';
import type { Logger } from './dev-utils.js';
import type { CallListener } from './interception/call-outcome.js';
import type { RecordedExchange } from './recording/recorded-exchange.js';
import type { RecordingDraft, RecordingOptions } from './recording/recording-draft.js';
import type { SessionStore } from './store/session-store.js';
import type { HarnessEndpoints, ScenarioMap, ScenarioSummary } from './types.js';

/**
 * What the core leaves to the layers above it, through interfaces it owns: the inspector's
 * pages, the recorder's traffic → scenario converter, the browser's answers and the contract checks. The package's composition root
 * (`src/harness.ts`) plugs them in, so core imports neither; a harness without them answers
 * their endpoints with a 404 that says so.
 */
export interface HarnessExtensions {
  inspector?: InspectorExtension;
  /** The draft scenario file of a test's recorded calls (redacted, checked for leaks). */
  draftRecording?(exchanges: readonly RecordedExchange[], format: 'json' | 'yaml', options: RecordingOptions | undefined): Promise<RecordingDraft>;
  /** A call the test's browser made (`POST /__harness__/answer`), answered through `listener` as the app's own calls are. */
  answerBrowserCall?(call: ControlCall, testId: string, context: BrowserAnswerContext): Promise<ControlAnswer>;
  /**
   * The contract checker of `createHarness({ contracts })`: reads the documents (a document that
   * cannot be read rejects, naming it; what of one is not checked is said through `logger`),
   * compiles their schemas on first use. Called by `start()`.
   */
  loadContracts?(options: ContractsOptions, logger: Logger): Promise<ContractChecker>;
}

/** What the browser's answer endpoint gets from the core. */
export interface BrowserAnswerContext {
  /** The harness's answer to an outgoing call: the same scenario, variant, own mocks, state, sequences and journal. */
  listener: CallListener;
  /** `limits.maxBodyBytes`: the largest request body the endpoint reads. */
  maxBodyBytes: number;
}

/** The inspector's side of the control endpoints. */
export interface InspectorExtension {
  /** The inspector page (`GET /__harness__/`), with what it must know of this harness. */
  page(config: { endpoints: Readonly<Required<HarnessEndpoints>>; testIdHeader: string; journal: boolean }): Promise<ControlAnswer>;
  /** One page of live test IDs (`GET /__harness__/sessions`). */
  sessions(store: Pick<SessionStore, 'listSessions'>, search: string, path: string): Promise<ControlAnswer>;
  /** The catalogue with every scenario's mocks as JSON (`GET /__harness__/scenarios?mocks=true`). */
  scenarioDetails(definitions: ScenarioMap, catalogue: readonly ScenarioSummary[]): readonly unknown[];
}
