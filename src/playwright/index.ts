/**
 * @module
 * Playwright fixtures: a test ID per test on every page and `request` call, `switchScenario`,
 * `getState`, `waitForState`, and clean-up at test end.
 */

export { harnessTest, test } from './harness-test.js';
export type { HarnessTest, PlaywrightBaseTest } from './harness-test.js';
export { defineHarnessFixture } from './define-harness-fixture.js';
export type { HarnessFixtureDefinitions, HarnessFixtures, HarnessTestOptions } from './define-harness-fixture.js';
export { HarnessClient } from './harness-client.js';
export type { ActiveScenarioInfo, HarnessClientOptions, SwitchScenarioOptions, WaitForStateOptions } from './harness-client.js';
