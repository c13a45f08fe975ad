/**
 * An unmodified SvelteKit app (test/register/fixtures/sveltekit-app: plain JavaScript, no line of
 * scenario-harness) tested against its scenario file with
 * `NODE_OPTIONS=--import=scenario-harness/register` in front of `vite dev`, and of the
 * adapter-node build (`node build/index.js` after `vite build`), on every SvelteKit major in
 * test-runtimes.json that this Node runs. SvelteKit's CSRF check stays on.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, vi } from 'vitest';
import { describeProfileSuite } from '../frameworks/support/profile-suite.js';
import { prepareSvelteKitApp, startSvelteKit, SVELTEKIT_TARGETS } from '../frameworks/support/start-sveltekit.js';

const APP = fileURLToPath(new URL('./fixtures/sveltekit-app/', import.meta.url));
const HARNESS_ENV = { NODE_OPTIONS: '--import=scenario-harness/register', HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: 'scenarios.yaml', HARNESS_UNHANDLED: 'error' };

for (const target of SVELTEKIT_TARGETS) {
  if (target.skip !== undefined) {
    // A major this Node cannot run: one skipped test and one line in the run's output say why and where it runs.
    const reason = `register on an unmodified SvelteKit app: ${target.label} is SKIPPED: ${target.skip}`;
    console.warn(reason);
    test.skip(reason, () => {});
    continue;
  }
  for (const mode of ['production', 'dev'] as const) {
    describeProfileSuite({
      title: `register on an unmodified SvelteKit app: ${target.label}, ${mode === 'dev' ? 'vite dev' : 'vite build, node build/index.js'}`,
      mode,
      start: async () => {
        // The build never bundles the package: register loads it from node_modules.
        const dir = await prepareSvelteKitApp(target, mode, APP, 'register-app');
        const server = await startSvelteKit(target, mode, dir, HARNESS_ENV);
        return { server, dir, cleanup: () => mode === 'dev' && rmSync(dir, { recursive: true, force: true }) };
      },
      followPath: '/users/ada?/follow',
      followHeaders: { 'x-forwarded-proto': 'http' },
      // vite dev checks no origin; the production server does.
      crossSiteRefusal: mode === 'production' ? { status: 403, text: 'Cross-site POST form submissions are forbidden' } : undefined,
      printsOnce: '[scenario-harness] on: intercepting outgoing calls with 3 scenarios;',
      more: ({ app, client, profile }) => {
        if (mode === 'dev') test('an edit to the page’s server load shows on the next request, and the test keeps its scenario', async () => {
          const down = client();
          const other = client();
          await down.switchScenario('githubDown');
          expect(await profile(down)).toEqual({ status: 502, text: '502 | GitHub answered 503' });
          const load = join(app().dir, 'src', 'routes', 'users', '[login]', '+page.server.js');
          const source = readFileSync(load, 'utf8');
          const edited = source.replace('`GitHub answered ${', '`GitHub (edited) answered ${').replace('} on GitHub`', '} on GitHub (edited)`');
          expect(edited.split('(edited)')).toHaveLength(3);
          writeFileSync(load, edited);
          // Vite reloads the module when its watcher sees the change: poll the page until the edit shows.
          await vi.waitFor(async () => expect(await profile(down)).toEqual({ status: 502, text: '502 | GitHub (edited) answered 503' }), { timeout: 30_000, interval: 100 });
          expect(await profile(other)).toEqual({ status: 200, text: 'User ada on GitHub (edited) | 10 followers' });
          expect(await down.getActiveScenario()).toEqual({ scenarioId: 'githubDown', scenarioName: 'GitHub is down' });
        });
      },
    });
  }
}
