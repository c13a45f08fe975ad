/**
 * An unmodified SvelteKit app (test/register/fixtures/sveltekit-app: plain JavaScript, no line of
 * scenario-harness) tested against its scenario file with
 * `NODE_OPTIONS=--import=scenario-harness/register` in front of `vite dev`, and of the
 * adapter-node build (`node build/index.js` after `vite build`), on every SvelteKit major in
 * test-runtimes.json that this Node runs. SvelteKit's CSRF check stays on.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHarnessClient, type HarnessClient } from 'scenario-harness/client';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ensureSvelteKitBuild, prepareSvelteKitDevCopy, startSvelteKitWithRegister, SVELTEKIT_TARGETS, type RegisteredSvelteKit } from './start-registered-sveltekit.js';

const HARNESS_ENV = { HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: 'scenarios.yaml', HARNESS_UNHANDLED: 'error' };
const UP = { status: 200, text: 'User ada on GitHub | 10 followers' };
const DOWN = { status: 502, text: '502 | GitHub answered 503' };
const STARTED = '[scenario-harness] on: intercepting outgoing calls with 3 scenarios;';

for (const target of SVELTEKIT_TARGETS) {
  if (target.skip !== undefined) {
    // A major this Node cannot run: one skipped test and one line in the run's output say why and where it runs.
    const reason = `register on an unmodified SvelteKit app: ${target.label} is SKIPPED: ${target.skip}`;
    console.warn(reason);
    test.skip(reason, () => {});
    continue;
  }
  for (const mode of ['production', 'dev'] as const) {
    const how = mode === 'dev' ? 'vite dev' : 'vite build, node build/index.js';
    // A cold install and build take a while on a loaded machine: the hook's own timeout covers them.
    describe(`register on an unmodified SvelteKit app: ${target.label}, ${how}`, { timeout: 60_000 }, () => {
      let app: RegisteredSvelteKit;
      let dir: string;
      const client = () => createHarnessClient({ baseURL: app.origin });

      /** The profile page for `forTest`: its status and the text of its headings and paragraphs. */
      const profile = async (forTest: HarnessClient) => {
        const response = await fetch(app.url('/users/ada'), { headers: forTest.headers });
        const html = (await response.text()).replace(/<!--.*?-->/gs, '');
        return { status: response.status, text: [...html.matchAll(/<(h1|p)\b[^>]*>([^<]*)<\/\1>/g)].map((match) => match[2]).join(' | ') };
      };
      /** The page's "Follow" form posted as a browser without JavaScript would, from `origin`. */
      const follow = (forTest: HarnessClient, origin: string) =>
        fetch(app.url('/users/ada?/follow'), {
          method: 'POST',
          // x-forwarded-proto: the production server takes the protocol from it (PROTOCOL_HEADER), as behind a proxy.
          headers: { ...forTest.headers, origin, 'x-forwarded-proto': 'http', accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
          body: '',
        });

      beforeAll(async () => {
        dir = mode === 'dev' ? await prepareSvelteKitDevCopy(target) : await ensureSvelteKitBuild(target);
        app = await startSvelteKitWithRegister(target, mode, dir, HARNESS_ENV);
        // vite dev compiles each route on its first request: here, not in a test's time.
        const warmUp = client();
        for (const path of ['/users/ada', '/api/users/ada/repos']) await (await fetch(app.url(path), { headers: warmUp.headers })).arrayBuffer();
        await warmUp.endTest();
      }, 600_000);

      afterAll(async () => {
        await app?.close();
        if (mode === 'dev' && dir !== undefined) rmSync(dir, { recursive: true, force: true });
      });

      test('register attaches once and prints its start-up line', () => {
        expect(app.output().split(STARTED)).toHaveLength(2);
      });

      test('a switched test gets the error page while another test gets the profile', async () => {
        const down = client();
        const other = client();
        await down.switchScenario('githubDown');
        expect(await Promise.all([profile(down), profile(other)])).toEqual([DOWN, UP]);
        expect(await down.getActiveScenario()).toEqual({ scenarioId: 'githubDown', scenarioName: 'GitHub is down' });
        expect(await other.getActiveScenario()).toBeUndefined();
      });

      test('a sequence advances call by call for its own test only', async () => {
        const limited = client();
        const other = client();
        await limited.switchScenario('rateLimited');
        expect(await profile(limited)).toEqual(UP);
        expect(await profile(other)).toEqual(UP);
        expect(await profile(limited)).toEqual({ status: 502, text: '502 | GitHub answered 429' });
        expect(await profile(other)).toEqual(UP);
      });

      test('the journal lists the test’s calls with the scenario that answered them', async () => {
        const down = client();
        const other = client();
        await down.switchScenario('githubDown');
        await profile(down);
        await profile(other);
        expect(await down.calls()).toEqual([expect.objectContaining({ method: 'GET', url: 'https://api.github.com/users/ada', answered: true, scenarioId: 'githubDown', status: 503 })]);
        await other.expectCalled({ method: 'GET', url: '*/users/ada' }, { times: 1 });
      });

      test('a form action runs as its test: the mock it calls writes that test’s state', async () => {
        const follower = client();
        const other = client();
        const response = await follow(follower, app.origin);
        expect(response.status).toBe(200);
        expect(await response.text()).toContain('<p id="followed">You follow ada</p>');
        expect(await follower.getState()).toEqual({ following: ['ada'] });
        expect(await other.getState()).toEqual({});
        await follower.expectCalled({ method: 'PUT', url: 'https://api.github.com/user/following/ada' }, { times: 1 });
      });

      // vite dev checks no origin; the production server does.
      if (mode === 'production') test('SvelteKit still refuses a cross-site form post, while the control calls go through', async () => {
        const visitor = client();
        await visitor.switchScenario('githubDown');
        const response = await follow(visitor, 'http://evil.example');
        expect(response.status).toBe(403);
        expect(await response.text()).toBe('Cross-site POST form submissions are forbidden');
        expect(await visitor.calls()).toEqual([]);
        // A DELETE without an origin is one SvelteKit 3 refuses too: register answers it before the app.
        await visitor.endTest();
        expect(await visitor.getActiveScenario()).toBeUndefined();
      });

      test('ending the test puts it back on default', async () => {
        const down = client();
        await down.switchScenario('githubDown');
        expect(await profile(down)).toEqual(DOWN);
        await down.endTest();
        expect(await down.getActiveScenario()).toBeUndefined();
        expect(await profile(down)).toEqual(UP);
      });

      test('a call no scenario mocks fails with the harness’s message instead of reaching the network', async () => {
        const unmocked = client();
        const response = await fetch(app.url('/api/users/ada/repos'), { headers: unmocked.headers });
        expect(response.status).toBe(500);
        await vi.waitFor(
          () => expect(app.output()).toContain(`No mock answers GET https://api.github.com/users/ada/repos for test "${unmocked.testId}" in scenario "default"; the call fails (unhandled: 'error').`),
          { timeout: 5_000, interval: 50 },
        );
        expect(await unmocked.calls()).toEqual([expect.objectContaining({ url: 'https://api.github.com/users/ada/repos', answered: false, unhandled: 'failed' })]);
      });

      if (mode === 'dev') test('an edit to the page’s server load shows on the next request, and the test keeps its scenario', async () => {
        const down = client();
        const other = client();
        await down.switchScenario('githubDown');
        expect(await profile(down)).toEqual(DOWN);
        const load = join(dir, 'src', 'routes', 'users', '[login]', '+page.server.js');
        const source = readFileSync(load, 'utf8');
        const edited = source.replace('`GitHub answered ${', '`GitHub (edited) answered ${').replace('} on GitHub`', '} on GitHub (edited)`');
        expect(edited.split('(edited)')).toHaveLength(3);
        writeFileSync(load, edited);
        // Vite reloads the module when its watcher sees the change: poll the page until the edit shows.
        await vi.waitFor(async () => expect(await profile(down)).toEqual({ status: 502, text: '502 | GitHub (edited) answered 503' }), { timeout: 30_000, interval: 100 });
        expect(await profile(other)).toEqual({ status: 200, text: 'User ada on GitHub (edited) | 10 followers' });
        expect(await down.getActiveScenario()).toEqual({ scenarioId: 'githubDown', scenarioName: 'GitHub is down' });
      });
    });
  }
}
