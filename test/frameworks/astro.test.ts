/**
 * An Astro app wired as docs/astro.md shows (test/frameworks/fixtures/astro-app: a harness module
 * and one `onRequest` line in src/middleware/index.js), on every Astro major in test-runtimes.json
 * (each runs from the package's floor, Node 22.12): `astro dev` with an edit to the scenarios
 * that makes Vite evaluate the harness module again (Astro 6 reloads the middleware only for a
 * file under src/middleware, hence the folder), and the @astrojs/node standalone build. Astro's
 * origin check (`security.checkOrigin`) stays at its default, on: it refuses a cross-site form
 * post in the build on every major, and in `astro dev` on 6 and 7 (Astro 5's dev server has no
 * origin check). On Astro 5 the app's config also lists the host in `security.allowedDomains`
 * (test/frameworks/fixtures/astro-5: without it Astro 5's build refuses the app's own form
 * posts). On every major the client's switch and endTest pass the check.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { describeProfileSuite } from './support/profile-suite.js';
import { ASTRO_TARGETS, prepareAstroApp, startAstro } from './support/start-astro.js';

const APP = fileURLToPath(new URL('./fixtures/astro-app/', import.meta.url));
const fixture = (path: string) => fileURLToPath(new URL(`./fixtures/${path}`, import.meta.url));
/** The shared scenarios; on Astro 5, the config that lists the host in security.allowedDomains (why: in that file). */
const sharedFor = (major: string) => ({
  'src/middleware/scenarios.js': fixture('github-scenarios.js'),
  ...(major === '5' ? { 'astro.config.mjs': fixture('astro-5/astro.config.mjs') } : {}),
});

for (const target of ASTRO_TARGETS) {
  for (const mode of ['production', 'dev'] as const) {
    // Astro 5's `astro dev` runs no origin check, whatever security.checkOrigin says: its dev
    // server hands each request to the app's middleware alone, and only the build's pipeline puts
    // the check in front of it. Astro 6 and 7 check in dev too.
    const checksOrigin = mode === 'production' || Number(target.major) >= 6;
    describeProfileSuite({
      title: `Astro app wired with handleRequest: ${target.label}, ${mode === 'dev' ? 'astro dev' : 'astro build, node dist/server/entry.mjs'}`,
      mode,
      start: async () => {
        const dir = await prepareAstroApp(target, mode, APP, 'wired-app', sharedFor(target.major));
        const server = await startAstro(target, mode, dir, { HARNESS_ENABLED: 'true' });
        return { server, dir, cleanup: () => mode === 'dev' && rmSync(dir, { recursive: true, force: true }) };
      },
      followPath: '/users/ada',
      // Without an origin check (Astro 5's astro dev) the refusal test is replaced by the one below that shows what happens instead.
      ...(checksOrigin ? { crossSiteRefusal: { status: 403, text: 'Cross-site POST form submissions are forbidden' } } : {}),
      printsOnce: '[scenario-harness] on: intercepting outgoing calls with 3 scenarios;',
      scenariosFile: 'src/middleware/scenarios.js',
      more: ({ app, client, follow }) => {
        if (checksOrigin) {
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
          return;
        }
        test('Astro 5’s astro dev checks no origin: a cross-site form post reaches the page as its test, and a bodiless control DELETE ends the test', async () => {
          const visitor = client();
          await visitor.switchScenario('githubDown');
          // The build refuses this post (403, the suite's refusal test); astro dev renders the page, which calls GitHub as the visitor's test.
          const response = await follow(visitor, 'http://evil.example');
          expect(response.status).toBe(502);
          expect((await visitor.calls()).map(({ method, url, scenarioId }) => ({ method, url, scenarioId }))).toEqual([
            { method: 'PUT', url: 'https://api.github.com/user/following/ada', scenarioId: 'githubDown' },
            { method: 'GET', url: 'https://api.github.com/users/ada', scenarioId: 'githubDown' },
          ]);
          // No content type, no Origin: the harness answers it.
          const bare = await fetch(app().server.url('/__scenario__'), { method: 'DELETE', headers: visitor.headers });
          expect(bare.status).toBe(200);
          expect(await visitor.getActiveScenario()).toBeUndefined();
          // The client's switch and endTest (JSON) work the same as on every major.
          await visitor.switchScenario('githubDown');
          await visitor.endTest();
          expect(await visitor.getActiveScenario()).toBeUndefined();
        });
      },
    });
  }
}
