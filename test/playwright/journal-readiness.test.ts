/**
 * The Playwright fixture's summary for a failed test with an empty journal, when the app did not
 * serve its pages (issue 42, item 1): a child `playwright test` run (no browser) against an app
 * under register whose pages are a 503 loading screen (test/register/fixtures/loading-app.mjs).
 * The summary says the app does not serve yet and which URL to wait for, not only that the
 * journal is empty.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { cleanEnv, startWithRegister, type ChildApp } from '../register/start-registered-app.js';

const CONFIG = fileURLToPath(new URL('./readiness-fixture/playwright.config.ts', import.meta.url));
const PLAYWRIGHT = createRequire(import.meta.url).resolve('@playwright/test/cli');
const LOADING_APP = fileURLToPath(new URL('../register/fixtures/loading-app.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'scenario-harness-journal-readiness-'));
const SCENARIOS = join(work, 'scenarios.yaml');
writeFileSync(SCENARIOS, "default:\n  name: Profile\n  mocks:\n    - url: https://api.plain.test/profile\n      response: { body: 'ada' }\n");

let app: ChildApp;
beforeAll(async () => {
  app = await startWithRegister(LOADING_APP, cleanEnv({ HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: SCENARIOS, HARNESS_UNHANDLED: 'error' }));
});
afterAll(async () => {
  await app?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The child run's exit code and what it printed. */
function runPlaywright(): Promise<{ code: number; output: string }> {
  const env = { ...process.env, APP: app.url(''), PW_OUTPUT_DIR: join(work, 'results'), CI: '', FORCE_COLOR: '0' };
  return new Promise((resolve) => {
    execFile(process.execPath, [PLAYWRIGHT, 'test', '--config', CONFIG], { env }, (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), output: `${stdout}\n${stderr}` }));
  });
}

test("a failed test's empty journal comes with why: the app does not serve its pages yet, and the URL to wait for", async () => {
  const { code, output } = await runPlaywright();
  expect(code, output).toBe(1);
  const summary = output.split('\n').find((line) => line.startsWith('[scenario-harness] No outgoing call of test'));
  expect(summary, output).toMatch(/^\[scenario-harness\] No outgoing call of test "[^"]+" was intercepted: its journal is empty\. /);
  expect(summary).toContain('The app is not serving yet: GET / on this server answered 503 (a loading screen or an error).');
  expect(summary).toContain(`The test may never have reached the app's code: start the tests once the app serves, by waiting for ${app.url('/__harness__/scenarios?ready')} (webServer.url in playwright.config.ts).`);
});

test('once the app serves, a failed test with an empty journal gets the summary it had, with nothing about readiness', async () => {
  expect((await fetch(app.url('/built'))).status).toBe(204);
  const { code, output } = await runPlaywright();
  expect(code, output).toBe(1);
  const summary = output.split('\n').find((line) => line.startsWith('[scenario-harness] No outgoing call of test'));
  expect(summary, output).toMatch(/^\[scenario-harness\] No outgoing call of test "[^"]+" was intercepted: its journal is empty\.$/);
});
