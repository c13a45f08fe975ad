import { defineConfig } from '@playwright/test';
import type { HarnessTestOptions } from 'scenario-harness/playwright';

/**
 * Run by test/playwright/journal-readiness.test.ts against an app under register that answers
 * every page with a 503 loading screen (APP). No browser: the spec uses `harness` and `request`.
 */
export default defineConfig<HarnessTestOptions>({
  testDir: '.',
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: process.env.PW_OUTPUT_DIR,
  use: { baseURL: process.env.APP },
});
