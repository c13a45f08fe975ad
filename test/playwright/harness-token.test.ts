/**
 * The Playwright fixture's token over real HTTP: a child `playwright test` run (no browser)
 * against two apps with different tokens, one reached through HARNESS_TOKEN, one through
 * `use.harnessToken` (which wins over the variable), and a wrong option refused.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHarness, type Harness } from 'scenario-harness';
import { withHarness } from 'scenario-harness/node';
import { afterAll, beforeAll, expect, test } from 'vitest';

const TOKEN_A = 'a0a0a0a0b1b1b1b1c2c2c2c2d3d3d3d3';
const TOKEN_B = 'e4e4e4e4f5f5f5f50606060617171717';
const CONFIG = fileURLToPath(new URL('./token-fixture/playwright.config.ts', import.meta.url));
const PLAYWRIGHT = createRequire(import.meta.url).resolve('@playwright/test/cli');
const scenarios = { default: { name: 'Default', mocks: [] }, premium: { name: 'Premium', mocks: [] } };

const apps: { server: Server; harness: Harness }[] = [];
const output = mkdtempSync(join(tmpdir(), 'scenario-harness-token-fixture-'));

/** An app whose `/echo` answers the Authorization header and test ID it received. */
async function startApp(token: string): Promise<string> {
  // Both harnesses only answer control calls here: no interception is needed.
  const harness = createHarness({ enabled: true, intercept: false, scenarios, access: { token }, announce: false });
  await harness.start();
  const server = createServer(
    withHarness(harness, (req, res) => void res.end(JSON.stringify({ authorization: req.headers.authorization ?? null, testId: harness.currentTestId() }))),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apps.push({ server, harness });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let appA: string;
let appB: string;
beforeAll(async () => {
  appA = await startApp(TOKEN_A);
  appB = await startApp(TOKEN_B);
});
afterAll(async () => {
  for (const { server, harness } of apps) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await harness.stop();
  }
  rmSync(output, { recursive: true, force: true });
});

test('use.harnessToken and HARNESS_TOKEN reach the app as the Bearer credential of the harness fixture', async () => {
  const env = { ...process.env, APP_A: appA, APP_B: appB, TOKEN_B, HARNESS_TOKEN: TOKEN_A, PW_OUTPUT_DIR: output, CI: '', FORCE_COLOR: '0' };
  const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(process.execPath, [PLAYWRIGHT, 'test', '--config', CONFIG], { env }, (error, out, err) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout: `${out}\n${err}` }));
  });
  expect(stdout).toMatch(/\b3 passed\b/);
  expect(stdout).not.toMatch(/\bfailed\b/);
  expect(code).toBe(0);
  // The tokens never show in the run's output (the wrong-option project's failure text included).
  expect(stdout).not.toContain(TOKEN_A);
  expect(stdout).not.toContain(TOKEN_B);
}, 120_000);
