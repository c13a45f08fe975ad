import { fileURLToPath } from 'node:url';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import type { HarnessTestOptions } from 'scenario-harness/playwright';
import { runtimeProjects } from './runtimes/runtime-projects.js';

type WebServer = Extract<NonNullable<PlaywrightTestConfig['webServer']>, unknown[]>[number];

/**
 * The browser suite: Debian's chromium against the demo shop (examples/shop), one app for all
 * four workers, every test isolated by its own test ID. Run it with `node scripts/test-browser.js`
 * (the last step of `npm test`). Specs and app import the published names (`scenario-harness`,
 * `scenario-harness/playwright`); Playwright's loader and tsx both map them to src/ through the
 * `paths` of tsconfig.json, so the suite tests the sources and needs no build.
 */
const port = Number(process.env.BROWSER_TEST_PORT ?? 4319);
const baseURL = `http://127.0.0.1:${port}`;
const nextPort = Number(process.env.BROWSER_TEST_NEXT_PORT ?? port + 1);
const nextBaseURL = `http://127.0.0.1:${nextPort}`;
const previousNextPort = Number(process.env.BROWSER_TEST_PREVIOUS_NEXT_PORT ?? port + 2);
const previousNextBaseURL = `http://127.0.0.1:${previousNextPort}`;
// The LLM chat example (docs/llm-apps.md): its own spec files and test/browser/llm-chat, on port + 5.
const llmChatPort = Number(process.env.BROWSER_TEST_LLM_CHAT_PORT ?? port + 5);
const llmChatBaseURL = `http://127.0.0.1:${llmChatPort}`;
// The live-prices example (docs/websockets.md): the server's ws client and the page's own socket, on port + 6.
const livePricesPort = Number(process.env.BROWSER_TEST_LIVE_PRICES_PORT ?? port + 6);
const livePricesBaseURL = `http://127.0.0.1:${livePricesPort}`;
// The apps run on the Node that runs Playwright (`node26 scripts/test-browser.js` tests Node 26 end to end).
const node = JSON.stringify(process.execPath);
const root = fileURLToPath(new URL('../..', import.meta.url));
const chromium = process.env.PLAYWRIGHT_CHROMIUM_PATH || '/usr/bin/chromium';
// `--project shop` or `--project llm-chat` (BROWSER_TEST_SHOP_ONLY=1): the Next.js servers are not started either,
// which a git worktree whose node_modules is a symlink needs (Next cannot build there).
const shopOnly = process.env.BROWSER_TEST_SHOP_ONLY === '1';
// A Hono app on Bun and on Deno (the pinned binaries), driven by the fixture from this Node.
// BROWSER_TEST_RUNTIMES=0 leaves them out: scripts/test-runtimes.mjs does on the other Node lines,
// where the app under test would be the same Bun and Deno again.
const runtimes = shopOnly || process.env.BROWSER_TEST_RUNTIMES === '0' ? { projects: [], servers: [] } : runtimeProjects(port + 3);

export default defineConfig<HarnessTestOptions>({
  testDir: '.',
  fullyParallel: true,
  workers: 4,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: '../../playwright-report' }]] : [['list']],
  outputDir: '../../test-results',
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [
    { name: 'shop', testIgnore: ['next-app/**', 'runtimes/**', 'llm-chat/**', 'live-prices/**'] },
    // The guide's own spec files, as a user runs them, and the suite's tests of the same app.
    { name: 'llm-chat', testDir: root, testMatch: ['examples/llm-chat/tests/*.spec.ts', 'test/browser/llm-chat/*.spec.ts'], use: { baseURL: llmChatBaseURL } },
    { name: 'live-prices', testDir: root, testMatch: ['examples/live-prices/tests/*.spec.ts', 'test/browser/live-prices/*.spec.ts'], use: { baseURL: livePricesBaseURL } },
    ...(shopOnly ? [] : nextProjects()),
    ...runtimes.projects,
  ],
  webServer: [
    {
      command: `${node} --import tsx examples/shop/server.ts`,
      cwd: root,
      url: `${baseURL}/checkout`,
      env: { PORT: String(port), HARNESS_ENABLED: 'true' },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // HARNESS_TIMING=instant, as the guide advises for CI: the held stream still holds.
      command: `${node} --import tsx examples/llm-chat/server.ts`,
      cwd: root,
      url: llmChatBaseURL,
      env: { PORT: String(llmChatPort), HARNESS_ENABLED: 'true', HARNESS_TIMING: 'instant' },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `${node} --import tsx examples/live-prices/server.ts`,
      cwd: root,
      url: livePricesBaseURL,
      env: { PORT: String(livePricesPort), HARNESS_ENABLED: 'true' },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    ...(shopOnly ? [] : nextServers()),
    ...runtimes.servers,
  ],
});

function nextProjects() {
  return [
    // The Next.js example (App Router and Pages Router) under `next start`, on the current major
    // and on the previous one (test-runtimes.json).
    { name: 'next-app', testMatch: 'next-app/**/*.spec.ts', use: { baseURL: nextBaseURL } },
    { name: 'next-app (previous major)', testMatch: 'next-app/**/*.spec.ts', use: { baseURL: previousNextBaseURL } },
  ];
}

function nextServers(): WebServer[] {
  return [
    {
      // Builds examples/next-app first when its keyed build is missing (npm test has usually built it already).
      command: `${node} --import tsx test/browser/next-app/serve-next-example.ts`,
      cwd: root,
      url: `${nextBaseURL}/pages-router/gssp`,
      env: { PORT: String(nextPort) },
      reuseExistingServer: false,
      timeout: 300_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `${node} --import tsx test/browser/next-app/serve-next-example.ts`,
      cwd: root,
      url: `${previousNextBaseURL}/pages-router/gssp`,
      env: { PORT: String(previousNextPort), NEXT_TARGET: 'previous' },
      reuseExistingServer: false,
      timeout: 600_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ];
}
