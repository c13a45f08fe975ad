/**
 * @module
 * A small HTTP client for the app's control endpoints, for tests in any runner: switch the
 * scenario, read and wait for the state, list the scenarios, end the test.
 */

export { createHarnessClient } from './create-harness-client.js';
export type { HarnessClientOptions } from './create-harness-client.js';
export type { ActiveScenarioInfo, ControlFetch, HarnessClient, ScenarioInfo, SwitchScenarioOptions, WaitForStateOptions } from './harness-client.js';
export { withHarnessBaggage } from './harness-baggage.js';
