/**
 * Under register with `HARNESS_UNHANDLED=error`, Node's own module-hooks thread (started by
 * `module.register()`: tsx, ts-node, config loaders under `nuxt dev`) is no worker of the app's and
 * is not reported; a worker the app starts from a Worker class taken before register still is,
 * with advice that fits register being loaded (issue 42, item 2).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { cleanEnv, waitForExit, type ExitedProcess } from './start-registered-app.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const APP = fileURLToPath(new URL('./fixtures/registers-hooks.mjs', import.meta.url));
const TAKE_WORKER_EARLY = fileURLToPath(new URL('./fixtures/take-worker-early.cjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'scenario-harness-threads-'));
const SCENARIOS = join(work, 'scenarios.yaml');
writeFileSync(SCENARIOS, 'default:\n  name: Nothing\n  mocks: []\n');

/** The app under `node [preload] --import scenario-harness/register`, until it exits. */
function run(preload: string[]): Promise<ExitedProcess> {
  return waitForExit(
    spawn(process.execPath, [...preload, '--import', 'scenario-harness/register', APP], {
      cwd: ROOT,
      env: cleanEnv({ HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: SCENARIOS, HARNESS_UNHANDLED: 'error' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

test("the module-hooks thread module.register() starts is not reported as a worker without the harness's guard", async () => {
  const { code, stdout, stderr } = await run([]);
  expect({ code, stdout }).toEqual({ code: 0, stdout: 'done\n' });
  expect(stderr).toContain('[scenario-harness] on:');
  expect(stderr).not.toContain('started without');
});

test('a worker made from a Worker class a --require module took before register is reported, with advice for register (not to load register)', async () => {
  const { code, stdout, stderr } = await run(['--require', TAKE_WORKER_EARLY]);
  expect({ code, stdout }).toEqual({ code: 0, stdout: 'done\n' });
  const reports = stderr.split('\n').filter((line) => line.includes('started without'));
  expect(reports).toEqual([
    expect.stringMatching(/^\[scenario-harness\] Worker thread \d+ started without the harness's guard: it was made from a Worker class taken from node:worker_threads before scenario-harness\/register started the harness, /),
  ]);
  expect(reports[0]).toContain('Put --import=scenario-harness/register first, and load the module that starts workers after it');
  expect(reports[0]).not.toContain('run the app with --import scenario-harness/register');
});
