/**
 * docs/nextjs.md's app (examples/nextjs, every file the guide shows) builds with `next build`
 * (which type-checks it) and, under `next start` with HARNESS_ENABLED=true, prints the start-up
 * line the guide shows and answers the guide's curl commands as the guide says.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort, newcomerEnv, onPort, sh, startApp, walkthrough, type RunningApp } from '../newcomer/follow-the-docs.js';
import { codeBlocks, read, ROOT } from './markdown.js';

const APP = join(ROOT, 'examples', 'nextjs');
const NEXT_BIN = createRequire(import.meta.url).resolve('next/dist/bin/next');
const guide = walkthrough(codeBlocks(read('docs/nextjs.md')).filter((block) => block.step === 'check'), 'examples/nextjs');
let app: RunningApp | undefined;
let port: number;

function nextBuild(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NEXT_BIN, 'build'], { cwd: APP, env: newcomerEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`next build failed (${code}):\n${output.slice(-6000)}`))));
  });
}

beforeAll(async () => {
  await nextBuild();
  port = await freePort();
  // As the guide says (step 7): next start sets NODE_ENV=production, where the harness starts only when allowed to.
  const command = `HARNESS_ENABLED=true HARNESS_ALLOW_PRODUCTION=true ${JSON.stringify(process.execPath)} ${JSON.stringify(NEXT_BIN)} start --hostname 127.0.0.1 --port ${port}`;
  app = await startApp(command, ['[scenario-harness] on: intercepting outgoing calls with 2 scenarios;'], { cwd: APP, env: newcomerEnv() });
}, 300_000);

afterAll(() => app?.stop());

test('the guide shows the start-up line the app prints, and the start command this test runs', () => {
  expect(read('docs/nextjs.md')).toContain('`[scenario-harness] on: intercepting outgoing calls with 2 scenarios; …`');
  expect(read('docs/nextjs.md')).toContain('HARNESS_ENABLED=true HARNESS_ALLOW_PRODUCTION=true npm start');
});

test('the guide\'s curl commands get the answers it shows: the page, the switch, and another test untouched', async () => {
  expect(guide.checks.length).toBe(4);
  const answers = [];
  for (const { command } of guide.checks) answers.push((await sh(onPort(command, port), { cwd: APP, env: newcomerEnv() })).stdout.trim());
  expect(answers).toEqual(guide.checks.map((check) => check.expected));
});

test("the guide's two route files serve every control endpoint: the client switches, reads the state, the catalogue and the journal, and the inspector page loads", async () => {
  const { createHarnessClient } = await import('scenario-harness/client');
  const origin = `http://127.0.0.1:${port}`;
  const harness = createHarnessClient({ baseURL: origin });
  await harness.switchScenario('githubDown');
  expect(await harness.getState()).toEqual({});
  expect((await harness.listScenarios()).map((scenario) => scenario.id)).toEqual(['default', 'githubDown']);
  const page = await fetch(`${origin}/profile/octocat`, { headers: harness.headers });
  expect(page.status).toBe(200);
  const [call] = await harness.expectCalled({ method: 'GET', url: 'https://api.github.com/users/octocat' }, { times: 1 });
  expect(call).toMatchObject({ answered: true, status: 503 });
  const inspector = await fetch(`${origin}/__harness__`);
  expect([inspector.status, inspector.headers.get('content-type')]).toEqual([200, expect.stringContaining('text/html')]);
  await harness.endTest();
});
