/**
 * A Nuxt app wired as docs/nuxt.md shows (test/frameworks/fixtures/nuxt-app: the module and the
 * scenarios module named in nuxt.config), on every Nuxt major in test-runtimes.json that this
 * Node runs: `nuxt dev` with an edit to the scenarios, which makes Nitro build its server again
 * and start a new worker (the sessions stay with the nuxt process), and `nuxt build` run without
 * the harness, then `node .output/server/index.mjs` with HARNESS_ENABLED=true.
 * Nuxt has no CSRF check of its own (nuxt-security adds one): no cross-site refusal to check.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { describeProfileSuite } from './support/profile-suite.js';
import { NUXT_TARGETS, prepareNuxtApp, startNuxt } from './support/start-nuxt.js';

const APP = fileURLToPath(new URL('./fixtures/nuxt-app/', import.meta.url));
const SCENARIOS = { 'server/scenarios.js': fileURLToPath(new URL('./fixtures/github-scenarios.js', import.meta.url)) };
const STARTED = '[scenario-harness] on: intercepting outgoing calls with 3 scenarios;';

for (const target of NUXT_TARGETS) {
  if (target.skip !== undefined) {
    const reason = `Nuxt app wired with scenario-harness/nuxt: ${target.label} is SKIPPED: ${target.skip}`;
    console.warn(reason);
    test.skip(reason, () => {});
    continue;
  }
  for (const mode of ['production', 'dev'] as const) {
    describeProfileSuite({
      title: `Nuxt app wired with scenario-harness/nuxt: ${target.label}, ${mode === 'dev' ? 'nuxt dev' : 'nuxt build, node .output/server/index.mjs'}`,
      mode,
      start: async () => {
        const dir = await prepareNuxtApp(target, mode, APP, 'wired-app', SCENARIOS);
        const server = await startNuxt(target, mode, dir, { HARNESS_ENABLED: 'true' });
        return { server, dir, cleanup: () => mode === 'dev' && rmSync(dir, { recursive: true, force: true }) };
      },
      followPath: '/users/ada/follow',
      // A new Nitro worker prints the start-up line again after each edit: only the built server prints it once.
      printsOnce: mode === 'production' ? STARTED : undefined,
      scenariosFile: 'server/scenarios.js',
      reloadLine: 'Nitro restarted its server after an edit',
      more: ({ app }) => {
        if (mode !== 'production') return;
        test('the same build without HARNESS_ENABLED serves the app with no harness: the control paths are the app’s own (404)', async () => {
          const off = await startNuxt(target, mode, app().dir, {});
          try {
            // The home page makes no outgoing call: with the harness off, the profile page would reach GitHub.
            const home = await fetch(off.url('/'), { headers: { accept: 'text/html' } });
            expect({ status: home.status, text: await home.text() }).toEqual({ status: 200, text: expect.stringContaining('<h1>GitHub profiles</h1>') });
            expect((await fetch(off.url('/__harness__/scenarios'), { headers: { accept: 'text/html' } })).status).toBe(404);
            // Outside NODE_ENV=production the disabled harness says once that it is off, and why (nothing else).
            expect(off.output()).not.toContain('[scenario-harness] on:');
            expect(off.output().match(/\[scenario-harness\] disabled: enabled is false \(HARNESS_ENABLED is not set\)/g)).toHaveLength(1);
          } finally {
            await off.close();
          }
        });
      },
    });
  }
}
