import { harnessTest } from 'scenario-harness/playwright';
import type { scenarios } from '../../../examples/next-app/lib/scenarios.js';

/** `test` for the Next.js example: its scenario IDs are checked at compile time. */
export const test = harnessTest<typeof scenarios>();
export { expect } from '@playwright/test';
