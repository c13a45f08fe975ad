/**
 * A React Router app (framework mode, SSR) wired as docs/react-router.md shows
 * (test/frameworks/fixtures/react-router-app: a harness module, one root `middleware` line and
 * the two routes that let the control paths reach it), on every React Router major in
 * test-runtimes.json that this Node runs: `react-router dev` with an edit that makes Vite
 * evaluate the harness module again, and `react-router build` served by `react-router-serve`.
 * React Router's own CSRF check (a form post whose `origin` is another host answers 400) stays
 * on; it runs in dev too. Besides the profile suite: the control routes, a route module edit in
 * dev (React Router 8 then evaluates the harness module again too), and the production build
 * started again with the harness off.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test, vi } from 'vitest';
import { DOWN, describeProfileSuite, replaceFile } from './support/profile-suite.js';
import { prepareReactRouterApp, REACT_ROUTER_TARGETS, startReactRouter } from './support/start-react-router.js';

const APP = fileURLToPath(new URL('./fixtures/react-router-app/', import.meta.url));
const fixture = (path: string) => fileURLToPath(new URL(`./fixtures/${path}`, import.meta.url));
/** The shared scenarios; on React Router 7, the config that turns middleware on (8 refuses its flag). */
const sharedFor = (major: string) => ({
  'app/scenarios.js': fixture('github-scenarios.js'),
  ...(major === '7' ? { 'react-router.config.js': fixture('react-router-7/react-router.config.js') } : {}),
});

for (const target of REACT_ROUTER_TARGETS) {
  if (target.skip !== undefined) {
    const reason = `React Router app wired with handleRequest: ${target.label} is SKIPPED: ${target.skip}`;
    console.warn(reason);
    test.skip(reason, () => {});
    continue;
  }
  for (const mode of ['production', 'dev'] as const) {
    describeProfileSuite({
      title: `React Router app wired with handleRequest: ${target.label}, ${mode === 'dev' ? 'react-router dev' : 'react-router build, react-router-serve'}`,
      mode,
      start: async () => {
        const dir = await prepareReactRouterApp(target, mode, APP, 'app', sharedFor(target.major));
        // react-router-serve sets NODE_ENV=production, where the harness starts only when told to (docs/react-router.md).
        const server = await startReactRouter(target, mode, dir, { HARNESS_ENABLED: 'true', ...(mode === 'production' ? { HARNESS_ALLOW_PRODUCTION: 'true' } : {}) });
        return { server, dir, cleanup: () => mode === 'dev' && rmSync(dir, { recursive: true, force: true }) };
      },
      followPath: '/users/ada',
      crossSiteRefusal: { status: 400, text: 'Bad Request' },
      printsOnce: '[scenario-harness] on: intercepting outgoing calls with 3 scenarios;',
      scenariosFile: 'app/scenarios.js',
      more: ({ app, client, profile, follow }) => {
        // A failed test shows what the server printed (its errors are in there, not in the answer).
        afterEach(({ task }) => {
          if (task.result?.state === 'fail') console.error(`${target.label}, ${mode}: the server's last output:\n${app().server.output().slice(-4_000)}`);
        });

        test('the control paths are answered through their routes: the inspector page, and a path under /__harness__/ the harness does not serve is not found', async () => {
          const visitor = client();
          const inspector = await fetch(app().server.url('/__harness__/'), { headers: visitor.headers });
          expect([inspector.status, inspector.headers.get('content-type')]).toEqual([200, expect.stringContaining('text/html')]);
          await inspector.arrayBuffer();
          const unknown = await fetch(app().server.url('/__harness__/nothing-here'), { headers: visitor.headers });
          expect(unknown.status).toBe(404);
          await unknown.arrayBuffer();
        });

        if (mode === 'dev') {
          test('an edit to a route module (React Router 8 evaluates every server module again, the harness module included): switched tests keep scenario and state', async () => {
            const down = client();
            const follower = client();
            await down.switchScenario('githubDown');
            expect((await follow(follower)).status).toBe(200);
            const path = join(app().dir, 'app/routes/user.jsx');
            const source = readFileSync(path, 'utf8');
            replaceFile(app().dir, path, source.replaceAll('<main>', '<main data-edited="">'));
            try {
              await vi.waitFor(
                async () => expect(await (await fetch(app().server.url('/users/ada'), { headers: down.headers })).text()).toContain('data-edited'),
                { timeout: 30_000, interval: 100 },
              );
              expect(await profile(down)).toEqual(DOWN);
              expect(await follower.getState()).toEqual({ following: ['ada'] });
            } finally {
              replaceFile(app().dir, path, source);
            }
          });
        } else {
          test('with the harness off (no HARNESS_ENABLED), the same build answers 404 on the control paths', async () => {
            const off = await startReactRouter(target, mode, app().dir, {});
            try {
              const answers = [];
              for (const method of ['GET', 'POST', 'DELETE']) {
                const response = await fetch(off.url('/__scenario__'), { method, headers: { 'content-type': 'application/json' }, body: method === 'POST' ? '{"scenario":"githubDown"}' : undefined });
                answers.push(`${method} ${response.status} ${await response.text()}`);
              }
              expect(answers).toEqual(['GET 404 Not Found', 'POST 404 Not Found', 'DELETE 404 Not Found']);
              expect(off.output()).not.toContain('[scenario-harness]');
            } finally {
              await off.close();
            }
          });
        }
      },
    });
  }
}
