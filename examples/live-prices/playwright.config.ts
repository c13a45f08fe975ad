import { defineConfig } from '@playwright/test';
import type { HarnessTestOptions } from 'scenario-harness/playwright';

const baseURL = `http://127.0.0.1:${process.env.PORT ?? 3000}`;
// Playwright's own Chromium (npx playwright install chromium), or one already on the machine.
const chromiumPath = process.env.PLAYWRIGHT_CHROMIUM_PATH;

export default defineConfig<HarnessTestOptions>({
  testDir: './tests',
  fullyParallel: true, // every test has its own test ID, so they share one app safely
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: chromiumPath
      ? { executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] }
      : {},
  },
  webServer: {
    command: 'npx tsx server.ts',
    env: {
      HARNESS_ENABLED: 'true',
    },
    url: baseURL,
    reuseExistingServer: !process.env.CI,
  },
});
