/**
 * A NestJS app wired as docs/nestjs.md shows (test/frameworks/fixtures/nestjs-app, plain
 * JavaScript ESM), on every NestJS major in test-runtimes.json: the Express platform with
 * `app.use(harnessMiddleware(harness))`, with `consumer.apply(harnessMiddleware(harness))` in a
 * module (unspread and spread), and the Fastify platform with the harness's Fastify plugin; each
 * also with the harness disabled (no page may turn into a 500). Nest has no dev server that
 * evaluates modules again in one process (`nest start --watch` restarts it), and no CSRF check.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { startServerGroup } from '../support/start-server-group.js';
import { frameworkEnv, frameworkTargets, prepareDevCopy, type FrameworkTarget } from './support/framework-install.js';
import { describeProfileSuite } from './support/profile-suite.js';

const APP = fileURLToPath(new URL('./fixtures/nestjs-app/', import.meta.url));
const SCENARIOS = { 'src/scenarios.js': fileURLToPath(new URL('./fixtures/github-scenarios.js', import.meta.url)) };
const TARGETS = frameworkTargets('nestjs', 'NestJS', ['@nestjs/core']);
const WIRINGS = [
  { label: 'Express platform, app.use(harnessMiddleware(harness))', env: {} },
  { label: 'Express platform, consumer.apply(harnessMiddleware(harness)).forRoutes(\'*\')', env: { NEST_WIRING: 'consumer' } },
  { label: 'Express platform, consumer.apply(...harnessMiddleware(harness)).forRoutes(\'*\')', env: { NEST_WIRING: 'consumer-spread' } },
  { label: 'Fastify platform, app.register(harnessPlugin, { harness })', env: { NEST_PLATFORM: 'fastify' } },
] as const;

/** One app folder per major (plain JavaScript: nothing to build), shared by every wiring. */
const folders = new Map<FrameworkTarget, Promise<string>>();
const folderOf = (target: FrameworkTarget) => {
  if (!folders.has(target)) folders.set(target, prepareDevCopy(target, APP, 'app', SCENARIOS));
  return folders.get(target)!;
};

const startNest = async (target: FrameworkTarget, env: Record<string, string>) =>
  startServerGroup({
    args: ['src/main.js'],
    cwd: await folderOf(target),
    env: frameworkEnv({ PORT: '0', ...env }),
    readyAt: (output) => /Nest listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1],
    what: `NestJS ${target.major} (node src/main.js)`,
  });

for (const target of TARGETS) {
  for (const wiring of WIRINGS) {
    describeProfileSuite({
      title: `NestJS app: ${target.label}, ${wiring.label}`,
      mode: 'production',
      start: async () => ({ server: await startNest(target, { HARNESS_ENABLED: 'true', ...wiring.env }), dir: await folderOf(target) }),
      followPath: '/users/ada/follow',
      printsOnce: '[scenario-harness] on: intercepting outgoing calls with 3 scenarios;',
    });
  }

  describe(`NestJS app with the harness disabled: ${target.label}`, () => {
    for (const wiring of WIRINGS) {
      test(`${wiring.label}: pages answer as without the harness, control paths are the app's 404`, async () => {
        const server = await startNest(target, wiring.env);
        try {
          const page = await fetch(server.url('/health'), { headers: { 'x-harness-test-id': 'ignored' } });
          expect({ status: page.status, text: await page.text() }).toEqual({ status: 200, text: 'ok' });
          const control = await fetch(server.url('/__scenario__'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"scenarioId":"githubDown"}' });
          expect(control.status).toBe(404);
          expect(server.output()).not.toContain('[scenario-harness] on:');
        } finally {
          await server.close();
        }
      });
    }
  });
}
