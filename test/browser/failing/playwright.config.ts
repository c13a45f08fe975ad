import { defineConfig } from '@playwright/test';
import type { HarnessTestOptions } from 'scenario-harness/playwright';

/**
 * The child run of journal-attachment.spec.ts: the failing specs of this folder against the
 * shop the parent suite serves (FAILING_BASE_URL), with a JSON report at FAILING_REPORT.
 */
export default defineConfig<HarnessTestOptions>({
  testDir: '.',
  testMatch: '*.fails.ts',
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: process.env.FAILING_REPORT ?? 'report.json' }]],
  outputDir: process.env.FAILING_OUTPUT ?? 'test-results',
  use: {
    baseURL: process.env.FAILING_BASE_URL,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.PLAYWRIGHT_CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
