/**
 * A test's own mocks under `nuxt dev` with register (issue 42): `nuxt dev` answers on the port in
 * its first process and renders pages in another (a forked Nuxt process, Nitro in a worker
 * thread), so `harness.use()` is answered in one process and the call it mocks is made in
 * another. An unmodified Nuxt app (test/register/fixtures/nuxt-plain-app: its page fetches an
 * outside API while it renders on the server) with `NODE_OPTIONS=--import=scenario-harness/register`:
 * the mock a test adds with `use()` answers that server-side call for that test only, and is gone
 * after `resetMocks()`. Before, `use()` answered `{ "mocks": 1 }` and the page kept rendering from
 * the scenario, without a word.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createHarnessClient, type HarnessClient } from 'scenario-harness/client';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { NUXT_TARGETS, prepareNuxtApp, startNuxt } from '../frameworks/support/start-nuxt.js';
import type { ServerGroup } from '../support/start-server-group.js';

const APP = fileURLToPath(new URL('./fixtures/nuxt-plain-app/', import.meta.url));
const REGISTER_ENV = { NODE_OPTIONS: '--import=scenario-harness/register', HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: 'scenarios.yaml', HARNESS_UNHANDLED: 'error' };

for (const target of NUXT_TARGETS) {
  if (target.skip !== undefined) {
    const reason = `a test's own mocks under nuxt dev with register: ${target.label} is SKIPPED: ${target.skip}`;
    console.warn(reason);
    test.skip(reason, () => {});
    continue;
  }
  describe(`a test's own mocks under nuxt dev with register: ${target.label}`, { timeout: 60_000 }, () => {
    let server: ServerGroup;
    let dir: string;

    /** What the page rendered on the server for `forTest`. */
    const greeting = async (forTest: HarnessClient) => {
      const html = await (await fetch(server.url('/'), { headers: { ...forTest.headers, accept: 'text/html' } })).text();
      return /<p id="greeting">([^<]*)<\/p>/.exec(html)?.[1] ?? `no greeting in: ${html.slice(0, 2000)}`;
    };

    beforeAll(async () => {
      dir = await prepareNuxtApp(target, 'dev', APP, 'register-own-mocks');
      server = await startNuxt(target, 'dev', dir, REGISTER_ENV);
      // The first process answers the control endpoints at once; the page renders once Nitro is built.
      const warmUp = createHarnessClient({ baseURL: server.origin });
      await vi.waitFor(async () => expect(await greeting(warmUp)).toBe('from the scenario'), { timeout: 300_000, interval: 500 });
    }, 600_000);

    afterAll(async () => {
      await server?.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    test("use() in a test answers the page's server-side call for that test only, and resetMocks() takes it back", async () => {
      const own = createHarnessClient({ baseURL: server.origin });
      const other = createHarnessClient({ baseURL: server.origin });
      expect(await own.use({ url: 'https://api.greeting.test/greeting', response: { body: { text: 'from the test' } } })).toBe(1);
      expect(await Promise.all([greeting(own), greeting(other)])).toEqual(['from the test', 'from the scenario']);
      await own.resetMocks();
      expect(await greeting(own)).toBe('from the scenario');
    });

    test('the page renders in another process than the one that answered use(): register says it shares the first process’s sessions', () => {
      expect(server.output()).toMatch(/\[scenario-harness\] sessions: process \d+ shares the test sessions of the process under register that started it\./);
    });
  });
}
