/**
 * An unmodified Next.js app (test/register/fixtures/next-plain-app: no line of scenario-harness,
 * no instrumentation.ts, no route for the control endpoints) tested against its scenario file with
 * `NODE_OPTIONS=--import=scenario-harness/register` in front of `next start` (after `next build`)
 * and `next dev`, on every Next.js major (test-runtimes.json names the previous one). `next dev`
 * runs the app in a server process its CLI forks (and restarts when next.config changes): the
 * switches live in register's first process, so they hold across both.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHarnessClient, type HarnessClient } from 'scenario-harness/client';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ensureNextBuild, NEXT_TARGETS, nextTargetFor, prepareNextDevCopy } from '../adapters/fixtures/next-build.js';
import { startNextWithRegister, type RegisteredNext } from './start-registered-next.js';

const PLAIN_APP = fileURLToPath(new URL('./fixtures/next-plain-app/', import.meta.url));
// `next start` sets NODE_ENV=production: the harness starts there only when allowed to (docs/no-code-setup.md).
const HARNESS_ENV = { HARNESS_ENABLED: 'true', HARNESS_ALLOW_PRODUCTION: 'true', HARNESS_SCENARIOS: 'scenarios.yaml', HARNESS_UNHANDLED: 'error' };
const UP = 'ada has 10 followers';
const DOWN = 'GitHub answered 503: unavailable';

for (const major of NEXT_TARGETS) {
  const target = nextTargetFor(major, PLAIN_APP);
  for (const mode of ['start', 'dev'] as const) {
    // next dev compiles a route on its first request and again after an edit: a loaded machine needs the time.
    describe(`register on an unmodified Next.js app: ${major.label}, next ${mode}`, { timeout: 60_000 }, () => {
      let app: RegisteredNext;
      let dir: string;
      const client = () => createHarnessClient({ baseURL: app.origin });

      /** The page's HTML for `forTest`. */
      const pageHtml = async (forTest: HarnessClient) => (await fetch(app.url('/profile/ada'), { headers: forTest.headers })).text();
      /** What the server component rendered from GitHub's answer. */
      const profileIn = (html: string) => /<p id="profile">([^<]*)<\/p>/.exec(html)?.[1] ?? `no profile in: ${html.slice(0, 2000)}`;
      const profile = async (forTest: HarnessClient) => profileIn(await pageHtml(forTest));
      /** What the route handler passed on from GitHub's answer for `forTest`, and the process that answered. */
      const route = async (forTest: HarnessClient) => {
        const response = await fetch(app.url('/api/github/ada'), { headers: forTest.headers });
        return { status: response.status, body: (await response.json()) as { status: number; user: unknown; pid: number } };
      };

      beforeAll(async () => {
        if (mode === 'start') {
          // `next build` on two cores takes a minute or more; kept per major, keyed on its inputs.
          await ensureNextBuild(target);
          dir = target.dir;
        } else {
          dir = await prepareNextDevCopy(target);
        }
        app = await startNextWithRegister(target, mode, dir, HARNESS_ENV);
        // next dev compiles each route on its first request: here, not in a test's time.
        const warmUp = client();
        for (const path of ['/profile/ada', '/api/github/ada', '/api/balance']) await (await fetch(app.url(path), { headers: warmUp.headers })).arrayBuffer();
        await warmUp.endTest();
      }, 600_000);

      afterAll(async () => {
        await app?.close();
        if (mode === 'dev' && dir !== undefined) rmSync(dir, { recursive: true, force: true });
      });

      test('register announces itself with its start-up line', () => {
        expect(app.output()).toContain('[scenario-harness] on: intercepting outgoing calls with 3 scenarios;');
      });

      test('a switched test sees its scenario on the page and in the route handler while another test sees default', async () => {
        const down = client();
        const other = client();
        await down.switchScenario('githubDown');
        expect(await Promise.all([profile(down), profile(other)])).toEqual([DOWN, UP]);
        const [downRoute, otherRoute] = await Promise.all([route(down), route(other)]);
        expect(downRoute).toMatchObject({ status: 502, body: { status: 503, user: { message: 'unavailable' } } });
        expect(otherRoute).toMatchObject({ status: 200, body: { status: 200, user: { login: 'ada', followers: 10 } } });
        expect(await down.getActiveScenario()).toEqual({ scenarioId: 'githubDown', scenarioName: 'GitHub is down' });
        expect(await other.getActiveScenario()).toBeUndefined();
      });

      test('a sequence advances call by call for its own test only', async () => {
        const flaky = client();
        const other = client();
        await flaky.switchScenario('githubFlaky');
        expect((await route(flaky)).body).toMatchObject({ status: 503 });
        expect((await route(other)).body).toMatchObject({ status: 200, user: { followers: 10 } });
        expect((await route(flaky)).body).toMatchObject({ status: 200, user: { followers: 11 } });
        expect(await profile(flaky)).toBe('ada has 11 followers');
      });

      test('the journal lists the test’s calls with the scenario that answered them', async () => {
        const down = client();
        const other = client();
        await down.switchScenario('githubDown');
        await profile(down);
        await route(down);
        await route(other);
        expect(await down.calls()).toEqual([
          expect.objectContaining({ method: 'GET', url: 'https://api.github.com/users/ada', answered: true, scenarioId: 'githubDown', status: 503 }),
          expect.objectContaining({ method: 'GET', url: 'https://api.github.com/users/ada', answered: true, scenarioId: 'githubDown', status: 503 }),
        ]);
        await other.expectCalled({ method: 'GET', url: '*/users/ada' }, { times: 1 });
      });

      test('ending the test puts it back on default', async () => {
        const down = client();
        await down.switchScenario('githubDown');
        expect(await profile(down)).toBe(DOWN);
        await down.endTest();
        expect(await down.getActiveScenario()).toBeUndefined();
        expect(await profile(down)).toBe(UP);
      });

      test('a test’s own mocks (use()) answer the server component and the route handler, for that test only', async () => {
        // Next answers in more than one process (register's first one hosts the sessions): use() once answered 501 there, "the session store keeps none".
        const own = client();
        const other = client();
        expect(await own.use({ method: 'GET', url: 'https://api.github.com/users/:login', response: { body: { login: 'ada', followers: 42 } } })).toBe(1);
        expect(await Promise.all([profile(own), profile(other)])).toEqual(['ada has 42 followers', UP]);
        expect((await route(own)).body).toMatchObject({ status: 200, user: { login: 'ada', followers: 42 } });
        await own.resetMocks();
        expect(await profile(own)).toBe(UP);
      });

      test('a call no scenario mocks fails with the harness’s message instead of reaching the network', async () => {
        const unmocked = client();
        const response = await fetch(app.url('/api/balance'), { headers: unmocked.headers });
        expect(response.status).toBe(500);
        await vi.waitFor(() => expect(app.output()).toContain(`No mock answers GET https://api.stripe.com/v1/balance for test "${unmocked.testId}" in scenario "default"; the call fails (unhandled: 'error').`), {
          timeout: 5_000,
          interval: 50,
        });
        expect(await unmocked.calls()).toEqual([expect.objectContaining({ url: 'https://api.stripe.com/v1/balance', answered: false, unhandled: 'failed' })]);
      });

      test.runIf(mode === 'dev')('an edit to the page’s source shows on the next request, and the test keeps its scenario', async () => {
        const down = client();
        const other = client();
        await down.switchScenario('githubDown');
        expect(await profile(down)).toBe(DOWN);
        const page = join(dir, 'app', 'profile', '[login]', 'page.tsx');
        writeFileSync(page, readFileSync(page, 'utf8').replace('<h1>Profile</h1>', '<h1>Profile, edited</h1>'));
        // Next recompiles on its own schedule: poll the page (each request waits for the compile) until the edit shows.
        const html = await vi.waitFor(
          async () => {
            const html = await pageHtml(down);
            expect(html).toContain('<h1>Profile, edited</h1>');
            return html;
          },
          { timeout: 45_000, interval: 200 },
        );
        expect(profileIn(html)).toBe(DOWN);
        expect(await profile(other)).toBe(UP);
        expect(await down.getActiveScenario()).toEqual({ scenarioId: 'githubDown', scenarioName: 'GitHub is down' });
      });

      test.runIf(mode === 'dev')('a change to next.config restarts Next’s server process, and the test keeps its scenario', async () => {
        const down = client();
        await down.switchScenario('githubDown');
        const before = await route(down);
        expect(before.body).toMatchObject({ status: 503 });
        const config = join(dir, 'next.config.mjs');
        writeFileSync(config, `${readFileSync(config, 'utf8')}// edited by the test\n`);
        // The CLI starts a new server process on the same port: poll until the route handler answers from it.
        const after = await vi.waitFor(
          async () => {
            const answer = await route(down);
            expect(answer.body.pid).not.toBe(before.body.pid);
            return answer;
          },
          { timeout: 45_000, interval: 200 },
        );
        expect(after).toMatchObject({ status: 502, body: { status: 503, user: { message: 'unavailable' } } });
        expect(await down.getActiveScenario()).toEqual({ scenarioId: 'githubDown', scenarioName: 'GitHub is down' });
      });
    });
  }
}
