/**
 * A `.ts` scenario module under register with no loader: Node 22.18 and later strip its types
 * and load it; earlier lines stop the app at start with the two ways out.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { cleanEnv } from './start-registered-app.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PLAIN_SERVER = fileURLToPath(new URL('./fixtures/plain-server.mjs', import.meta.url));
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const stripsTypes = major > 22 || (major === 22 && minor >= 18);

const work = mkdtempSync(join(tmpdir(), 'scenario-harness-ts-module-'));
const module = join(work, 'scenarios.mts');
writeFileSync(
  module,
  `import type { ScenarioMap } from 'scenario-harness';

interface Greeting { text: string }
const hello: Greeting = { text: 'hello from TypeScript' };

export const scenarios: ScenarioMap = {
  default: { name: 'Greets', mocks: [{ url: 'https://api.plain.test/greeting', response: { body: hello.text } }] },
};
`,
);

/** Node with only register in front of the app (no tsx): what the app answered, or how it stopped. */
function startPlain(): Promise<{ answer?: string; code?: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'scenario-harness/register', PLAIN_SERVER], {
    cwd: ROOT,
    env: cleanEnv({ HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: module, HARNESS_UNHANDLED: 'error' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let answer: Promise<string> | undefined;
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const port = /listening (\d+)/.exec(stdout)?.[1];
    if (answer !== undefined) return;
    if (port === undefined) return;
    answer = fetch(`http://127.0.0.1:${port}/greeting`)
      .then((response) => response.text())
      .finally(() => child.kill());
  });
  // Read the output once the app is gone: one pipe may deliver after the other.
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (answer === undefined) resolve({ code, stdout, stderr });
      else answer.then((text) => resolve({ answer: text, stdout, stderr }), reject);
    });
  });
}

test.runIf(stripsTypes)(`Node ${process.versions.node} loads a .ts scenario module by itself`, async () => {
  const { answer, stderr } = await startPlain();
  expect(stderr).toContain('[scenario-harness] on: intercepting outgoing calls with 1 scenario');
  expect(answer).toBe('hello from TypeScript');
});

test.runIf(!stripsTypes)(`Node ${process.versions.node} (before 22.18) stops at start, naming the module and both ways out`, async () => {
  const { code, stderr } = await startPlain();
  expect(code).toBe(1);
  expect(stderr).toContain(`Failed to load scenario module ${module}`);
  expect(stderr).toContain('compile the module to .js, or load a TypeScript loader first (node --import tsx --import scenario-harness/register …)');
});
