import { test as playwrightTest } from '@playwright/test';
import type { PlaywrightTestArgs, PlaywrightTestOptions, PlaywrightWorkerArgs, PlaywrightWorkerOptions, TestType } from '@playwright/test';
import type { ScenarioMap } from '../core/types.js';
import { defineHarnessFixture, type HarnessFixtures } from './define-harness-fixture.js';

/** A Playwright `test` with Playwright's own fixtures (what `harnessTest` can extend). */
export type PlaywrightBaseTest = TestType<PlaywrightTestArgs & PlaywrightTestOptions, PlaywrightWorkerArgs & PlaywrightWorkerOptions>;

/** `B` (a Playwright `test`) with the harness fixtures added. */
export type HarnessTest<S extends ScenarioMap = ScenarioMap, B extends PlaywrightBaseTest = PlaywrightBaseTest> =
  B extends TestType<infer T, infer W> ? TestType<T & HarnessFixtures<S>, W> : never;

/**
 * A Playwright `test` whose tests each run as their own test ID, with a typed `harness` fixture:
 * an unknown scenario ID is a compile error. Built from `defineHarnessFixture()`.
 *
 * @example
 * import { harnessTest } from 'scenario-harness/playwright';
 * import type { scenarios } from '../src/scenarios';
 *
 * export const test = harnessTest<typeof scenarios>();
 * // extending your own test? name its type too, TypeScript cannot infer it next to an explicit one:
 * export const test2 = harnessTest<typeof scenarios, typeof myTest>(myTest);
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/playwright.md
 */
export function harnessTest<S extends ScenarioMap = ScenarioMap, B extends PlaywrightBaseTest = PlaywrightBaseTest>(base?: B): HarnessTest<S, B> {
  const from: PlaywrightBaseTest = base ?? playwrightTest;
  return from.extend<HarnessFixtures<S>>(defineHarnessFixture<S>()) as HarnessTest<S, B>;
}

/**
 * Playwright's `test` with the harness fixtures, for scenario IDs of any name. For a compile
 * error on unknown IDs use `harnessTest<typeof scenarios>()`.
 *
 * @example
 * import { test } from 'scenario-harness/playwright';
 * test('declined card', async ({ page, harness }) => {
 *   await harness.switchScenario('paymentDeclined');
 *   await page.goto('/checkout');
 * });
 */
export const test: HarnessTest = harnessTest();
