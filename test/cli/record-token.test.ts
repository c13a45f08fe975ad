/**
 * `scenario-harness record` against an app whose harness has access control (issue 23, item 16):
 * it sends HARNESS_TOKEN as a bearer token, and without it says which variable to set.
 */
import express from 'express';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHarness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { afterAll, beforeAll, expect, test } from 'vitest';

const CLI = fileURLToPath(new URL('./bin.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const TOKEN = 'record-token-0123456789abcdef';
let appUrl: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const harness = createHarness({ enabled: true, announce: false, access: { token: TOKEN }, scenarios: { default: { name: 'D', mocks: [] } } });
  await harness.start();
  const server = express().use(harnessMiddleware(harness)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = async () => {
    server.close();
    await harness.stop();
  };
});
afterAll(() => close?.());

/** Run `record` with `env`; once it says it records, stop it with Ctrl+C. Resolves with its exit code and output. */
function record(env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  const out = join(mkdtempSync(join(tmpdir(), 'record-token-')), 'recorded.json');
  const { HARNESS_TOKEN: _inherited, ...base } = process.env;
  const child = spawn(process.execPath, ['--import', TSX, CLI, 'record', appUrl, '--out', out, '--test-id', 'manual-1'], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stopped = false;
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    // Once: a second SIGINT while it writes the file would end it by the signal.
    if (output.includes('press Ctrl+C') && child.signalCode === null && !stopped) {
      stopped = true;
      child.kill('SIGINT');
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

test('with HARNESS_TOKEN set, record starts and stops the recording in an app with access control', async () => {
  const { code, output } = await record({ HARNESS_TOKEN: TOKEN });
  expect(output).toContain('Recording test "manual-1"');
  // Not a bare '401': the app's random port can hold those digits (a CI run's was 40141).
  expect(output).not.toContain('answered 401');
  expect(code, output).toBe(0);
});

test('without HARNESS_TOKEN, record fails at once and names the variable to set', async () => {
  const { code, output } = await record({});
  expect(code).not.toBe(0);
  expect(output).not.toContain('Recording test');
  expect(output).toContain("answered 401");
  expect(output).toContain("The app's harness has access control: set HARNESS_TOKEN to its token");
});
