import { defineConfig } from '@playwright/test';
import type { HarnessTestOptions } from 'scenario-harness/playwright';

/**
 * Run by test/playwright/harness-token.test.ts, which starts two apps (APP_A with TOKEN_A, APP_B
 * with TOKEN_B) and sets HARNESS_TOKEN=TOKEN_A. No browser: the specs use `harness` and `request`.
 */
export default defineConfig<HarnessTestOptions>({
  testDir: '.',
  workers: 1,
  reporter: [['list']],
  outputDir: process.env.PW_OUTPUT_DIR,
  projects: [
    // harnessToken left out: the fixture reads HARNESS_TOKEN.
    { name: 'env', use: { baseURL: process.env.APP_A } },
    // The option, over a HARNESS_TOKEN that would be wrong for this app.
    { name: 'option', use: { baseURL: process.env.APP_B, harnessToken: process.env.TOKEN_B } },
    { name: 'wrong-option', use: { baseURL: process.env.APP_A, harnessToken: 'not-the-token-0000000000000000' } },
  ],
});
