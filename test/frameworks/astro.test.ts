/**
 * An Astro app wired as docs/astro.md shows (test/frameworks/fixtures/astro-app: a harness module
 * and one `onRequest` line in src/middleware/index.js), on every Astro major in test-runtimes.json
 * that this Node runs (both need Node 22.12): `astro dev` with an edit to the scenarios that makes
 * Vite evaluate the harness module again (Astro 6 reloads the middleware only for a file under
 * src/middleware, hence the folder), and the @astrojs/node standalone build. Astro's origin check
 * (`security.checkOrigin`) stays on, and refuses a cross-site form post in both modes.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { describeProfileSuite } from './support/profile-suite.js';
import { ASTRO_TARGETS, prepareAstroApp, startAstro } from './support/start-astro.js';

const APP = fileURLToPath(new URL('./fixtures/astro-app/', import.meta.url));
const SCENARIOS = { 'src/middleware/scenarios.js': fileURLToPath(new URL('./fixtures/github-scenarios.js', import.meta.url)) };

for (const target of ASTRO_TARGETS) {
  if (target.skip !== undefined) {
    const reason = `Astro app wired with handleRequest: ${target.label} is SKIPPED: ${target.skip}`;
    console.warn(reason);
    test.skip(reason, () => {});
    continue;
  }
  for (const mode of ['production', 'dev'] as const) {
    describeProfileSuite({
      title: `Astro app wired with handleRequest: ${target.label}, ${mode === 'dev' ? 'astro dev' : 'astro build, node dist/server/entry.mjs'}`,
      mode,
      start: async () => {
        const dir = await prepareAstroApp(target, mode, APP, 'wired-app', SCENARIOS);
        const server = await startAstro(target, mode, dir, { HARNESS_ENABLED: 'true' });
        return { server, dir, cleanup: () => mode === 'dev' && rmSync(dir, { recursive: true, force: true }) };
      },
      followPath: '/users/ada',
      crossSiteRefusal: { status: 403, text: 'Cross-site POST form submissions are forbidden' },
      printsOnce: '[scenario-harness] on: intercepting outgoing calls with 3 scenarios;',
      scenariosFile: 'src/middleware/scenarios.js',
      more: ({ app, client }) => {
        test('Astro refuses a bodiless control DELETE that carries no content type; the client’s says JSON and passes', async () => {
          const visitor = client();
          await visitor.switchScenario('githubDown');
          // What a client without the JSON content type sends (fetch adds no Origin): Astro's origin check answers before the middleware.
          const bare = await fetch(app().server.url('/__scenario__'), { method: 'DELETE', headers: visitor.headers });
          expect({ status: bare.status, text: await bare.text() }).toEqual({ status: 403, text: 'Cross-site DELETE form submissions are forbidden' });
          expect(await visitor.getActiveScenario()).toEqual({ scenarioId: 'githubDown', scenarioName: 'GitHub is down' });
          await visitor.endTest();
          expect(await visitor.getActiveScenario()).toBeUndefined();
        });
      },
    });
  }
}
