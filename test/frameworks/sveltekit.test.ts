/**
 * A SvelteKit app wired as docs/sveltekit.md shows (test/frameworks/fixtures/sveltekit-app: a
 * harness module and one `handle` line), on every SvelteKit major in test-runtimes.json that this
 * Node runs: `vite dev` with an edit that makes Vite evaluate the harness module again, and the
 * adapter-node build, which bundles the package (a devDependency) with the harness's top-level
 * `await harness.start()`. SvelteKit's CSRF check stays on.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'vitest';
import { describeProfileSuite } from './support/profile-suite.js';
import { prepareSvelteKitApp, startSvelteKit, SVELTEKIT_TARGETS } from './support/start-sveltekit.js';

const APP = fileURLToPath(new URL('./fixtures/sveltekit-app/', import.meta.url));
/** The scenarios module, and the pages of the register suite's unmodified app: this app differs only by its wiring. */
const REGISTER_APP = fileURLToPath(new URL('../register/fixtures/sveltekit-app/src/', import.meta.url));
const SHARED = {
  'src/lib/server/scenarios.js': fileURLToPath(new URL('./fixtures/github-scenarios.js', import.meta.url)),
  'src/routes': `${REGISTER_APP}routes`,
  'src/app.html': `${REGISTER_APP}app.html`,
};

for (const target of SVELTEKIT_TARGETS) {
  if (target.skip !== undefined) {
    const reason = `SvelteKit app wired with handleRequest: ${target.label} is SKIPPED: ${target.skip}`;
    console.warn(reason);
    test.skip(reason, () => {});
    continue;
  }
  for (const mode of ['production', 'dev'] as const) {
    describeProfileSuite({
      title: `SvelteKit app wired with handleRequest: ${target.label}, ${mode === 'dev' ? 'vite dev' : 'vite build (package bundled), node build/index.js'}`,
      mode,
      start: async () => {
        const dir = await prepareSvelteKitApp(target, mode, APP, 'wired-app', SHARED);
        const server = await startSvelteKit(target, mode, dir, { HARNESS_ENABLED: 'true' });
        return { server, dir, cleanup: () => mode === 'dev' && rmSync(dir, { recursive: true, force: true }) };
      },
      followPath: '/users/ada?/follow',
      followHeaders: { 'x-forwarded-proto': 'http' },
      crossSiteRefusal: mode === 'production' ? { status: 403, text: 'Cross-site POST form submissions are forbidden' } : undefined,
      printsOnce: '[scenario-harness] on: intercepting outgoing calls with 3 scenarios;',
      scenariosFile: 'src/lib/server/scenarios.js',
    });
  }
}
