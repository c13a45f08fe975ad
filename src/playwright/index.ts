/**
 * @module
 * Playwright fixtures: a test ID per test on every page and `request` call (header and
 * `baggage`), `switchScenario`, `getState`, `waitForState`, verification of the app's calls
 * (`calls`, `waitForCall`, `expectCalled`), the journal attached to a failed test, and clean-up
 * at test end, built on the client of `scenario-harness/client`.
 */

export { harnessTest, test } from './harness-test.js';
export type { HarnessTest, PlaywrightBaseTest } from './harness-test.js';
export { defineHarnessFixture } from './define-harness-fixture.js';
export type { HarnessFixtureDefinitions, HarnessFixtures, HarnessTestOptions } from './define-harness-fixture.js';
export { HarnessClient } from './harness-client.js';
export type { HarnessBrowserOption } from './route-browser-calls.js';
export type { BrowserCallAnswer, BrowserCallRequest } from '../client/browser-call.js';
export type {
  ActiveScenarioInfo,
  CallFilter,
  ExpectCalledOptions,
  HarnessClientOptions,
  JournalEntry,
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
