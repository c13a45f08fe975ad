import { harnessTest } from 'scenario-harness/playwright';
import type { shopScenarios } from '../../examples/shop/scenarios.js';

/** The suite's `test`: the demo shop's scenario IDs are checked at compile time. */
export const test = harnessTest<typeof shopScenarios>();
export { expect } from '@playwright/test';
