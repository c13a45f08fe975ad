import type { ControlAnswer } from './control/control-call.js';
import type { RecordedExchange } from './recording/recorded-exchange.js';
import type { RecordingDraft, RecordingOptions } from './recording/recording-draft.js';
import type { SessionStore } from './store/session-store.js';
import type { HarnessEndpoints, ScenarioMap, ScenarioSummary } from './types.js';

/**
 * What the core leaves to the layers above it, through interfaces it owns: the inspector's
 * pages and the recorder's traffic → scenario converter. The package's composition root
 * (`src/harness.ts`) plugs them in, so core imports neither; a harness without them answers
 * their endpoints with a 404 that says so.
 */
export interface HarnessExtensions {
  inspector?: InspectorExtension;
  /** The draft scenario file of a test's recorded calls (redacted, checked for leaks). */
  draftRecording?(exchanges: readonly RecordedExchange[], format: 'json' | 'yaml', options: RecordingOptions | undefined): Promise<RecordingDraft>;
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
