import { harnessTest } from 'scenario-harness/playwright';
import type { scenarios } from '../scenarios.js';

// `harness` in every test, typed with your scenario IDs; every page and request carries the test's ID.
export const test = harnessTest<typeof scenarios>();
export { expect } from '@playwright/test';
