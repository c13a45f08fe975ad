/**
 * The server.ts of every framework guide runs and answers the README's curl commands as the
 * README says (the quick start's Express server too, here from the sources): started the
 * documented way (`HARNESS_ENABLED=true`, tsx), it prints the documented start-up lines, and
 * every check of the quick start holds, switch and isolation included.
 */
import { afterEach, expect, test } from 'vitest';
import { freePort, newcomerEnv, onPort, sh, startApp, walkthrough, type RunningApp } from '../newcomer/follow-the-docs.js';
import { codeBlocks, read, ROOT, section } from './markdown.js';

const quickStart = walkthrough(codeBlocks(section(read('README.md'), 'Quick start (Express)')), 'examples/quick-start');
let app: RunningApp | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test.each([
  ['Express (README)', 'examples/quick-start/server.ts'],
  ['Fastify (docs/fastify.md)', 'examples/frameworks/fastify.ts'],
  ['Hono (docs/hono.md)', 'examples/frameworks/hono.ts'],
  ['Koa (docs/koa.md)', 'examples/frameworks/koa.ts'],
  ['node:http (docs/node-http.md)', 'examples/frameworks/node-http.ts'],
])('%s: the quick start\'s curl commands get the answers the README shows', async (_name, file) => {
  const port = await freePort();
  // tsx maps the package's names to src/ through tsconfig.json's paths, as for the browser suite's app.
  const command = `HARNESS_ENABLED=true ${JSON.stringify(process.execPath)} --import tsx ${file}`;
  app = await startApp(command, quickStart.output.map((line) => onPort(line, port)), { cwd: ROOT, env: newcomerEnv({ PORT: String(port) }) });
  const answers = [];
  for (const { command: curl } of quickStart.checks) answers.push((await sh(onPort(curl, port), { cwd: ROOT, env: newcomerEnv() })).stdout.trim());
  expect(answers).toEqual(quickStart.checks.map((check) => check.expected));
  // The page Playwright's webServer.url polls answers 200 without a test ID.
  expect((await sh(`curl -s -o /dev/null -w '%{http_code}' 127.0.0.1:${port}/`, { cwd: ROOT, env: newcomerEnv() })).stdout).toBe('200');
});
