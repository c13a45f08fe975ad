/**
 * docs/nextjs.md's app (examples/nextjs, its instrumentation.ts as the guide writes it) under
 * `next dev --webpack`: webpack compiles instrumentation.ts for the edge runtime too and follows
 * `import('scenario-harness/next')` there, where the package's `edge-light` export (an inert
 * stand-in) keeps Node's built-ins out. The guide's curl commands get the guide's answers, as
 * under `next start`. Run on a copy, so the dev server's output never touches the build.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CURRENT_NEXT, nextTargetFor, prepareNextDevCopy } from '../adapters/fixtures/next-build.js';
import { freePort, newcomerEnv, onPort, sh, startApp, walkthrough, type RunningApp } from '../newcomer/follow-the-docs.js';
import { codeBlocks, read, ROOT } from './markdown.js';

const guide = walkthrough(codeBlocks(read('docs/nextjs.md')).filter((block) => block.step === 'check'), 'examples/nextjs');
let app: RunningApp | undefined;
let dir: string | undefined;
let port: number;

beforeAll(async () => {
  dir = await prepareNextDevCopy(nextTargetFor(CURRENT_NEXT, join(ROOT, 'examples', 'nextjs')));
  port = await freePort();
  const command = `HARNESS_ENABLED=true ${JSON.stringify(process.execPath)} ${JSON.stringify(CURRENT_NEXT.bin)} dev --webpack --hostname 127.0.0.1 --port ${port}`;
  app = await startApp(command, ['Ready in'], { cwd: dir, env: newcomerEnv({ NEXT_TELEMETRY_DISABLED: '1' }) });
}, 300_000);

afterAll(async () => {
  await app?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

test('next dev --webpack with the guide’s instrumentation.ts: the guide’s curl commands get its answers', { timeout: 180_000 }, async () => {
  expect(guide.checks.length).toBe(4);
  const answers = [];
  for (const { command } of guide.checks) answers.push((await sh(onPort(command, port), { cwd: dir!, env: newcomerEnv() })).stdout.trim());
  expect(answers).toEqual(guide.checks.map((check) => check.expected));
  expect(app!.output()).toContain('[scenario-harness] on: intercepting outgoing calls with 2 scenarios;');
  expect(app!.output()).not.toMatch(/Module not found|node:crypto/);
});
