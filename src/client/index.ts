/**
 * @module
 * A small HTTP client for the app's control endpoints, for tests in any runner: switch the
 * scenario, read and wait for the state, list the scenarios, verify the app's calls, end the test.
 */

export { createHarnessClient } from './create-harness-client.js';
export type { HarnessClientOptions } from './create-harness-client.js';
export type {
  ActiveScenarioInfo,
  ControlFetch,
  ExpectCalledOptions,
  HarnessClient,
  RecordedDraft,
  ScenarioInfo,
  SwitchScenarioOptions,
  WaitForCallOptions,
  WaitForStateOptions,
  StreamState,
  StreamView,
  WaitForStreamOptions,
  ExpectSentOptions,
  WaitForFrameOptions,
} from './harness-client.js';
export type { BrowserCallAnswer, BrowserCallRequest } from './browser-call.js';
export type { CallFilter } from './compile-call-filter.js';
export { describeCall } from './describe-call.js';
export type { JournalEntry, JournalFilter } from '../core/journal/journal-entry.js';
export { withHarnessBaggage } from './harness-baggage.js';
