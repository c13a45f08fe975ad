/**
 * A real `nuxt dev` with `NODE_OPTIONS=--import=scenario-harness/register` in front, on every Nuxt
 * major in test-runtimes.json that this Node runs (issue 42, items 1 and 2). The app is
 * test/frameworks/fixtures/nuxt-app with test/register/fixtures/nuxt-register/nuxt.config.ts: no
 * scenario-harness module, a build held until the test lets it go, and a module that registers
 * Node module hooks.
 *
 * - `nuxt dev` owns the port while it builds, so register answers the control paths at once,
 *   while pages do not render yet: `/__harness__/scenarios?ready` answers 503 then, and 200 only
 *   once a page renders.
 * - Node's module-hooks thread is not reported as a worker started without the harness's guard.
 */
import { createServer, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { NUXT_TARGETS, prepareNuxtApp, startNuxt } from '../frameworks/support/start-nuxt.js';
import type { ServerGroup } from '../support/start-server-group.js';

const APP = fileURLToPath(new URL('../frameworks/fixtures/nuxt-app/', import.meta.url));
const SHARED = {
  'nuxt.config.ts': fileURLToPath(new URL('./fixtures/nuxt-register/nuxt.config.ts', import.meta.url)),
  'scenarios.yaml': fileURLToPath(new URL('./fixtures/sveltekit-app/scenarios.yaml', import.meta.url)),
};
const HARNESS_ENV = { NODE_OPTIONS: '--import=scenario-harness/register', HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: 'scenarios.yaml', HARNESS_UNHANDLED: 'error' };

/** A loopback port the fixture's build waits on: it goes on once the test closes its connections. */
async function buildGate(): Promise<{ port: number; release(): void; close(): Promise<void> }> {
  const held = new Set<Socket>();
  let released = false;
  const server = createServer((socket) => {
    if (released) socket.end();
    else held.add(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    release() {
      released = true;
      for (const socket of held) socket.end();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const readyAnswer = async (server: ServerGroup) => {
  const response = await fetch(server.url('/__harness__/scenarios?ready'));
  return { status: response.status, hint: response.headers.get('x-harness-hint'), body: (await response.json()) as unknown };
};

for (const target of NUXT_TARGETS) {
  if (target.skip !== undefined) {
    const reason = `register in front of nuxt dev: ${target.label} is SKIPPED: ${target.skip}`;
    console.warn(reason);
    test.skip(reason, () => {});
    continue;
  }
  describe(`register in front of nuxt dev: ${target.label}`, () => {
    let server: ServerGroup;
    let dir: string;
    let gate: Awaited<ReturnType<typeof buildGate>>;
    beforeAll(async () => {
      gate = await buildGate();
      dir = await prepareNuxtApp(target, 'dev', APP, 'register-ready-app', SHARED);
      // Resolves once `nuxt dev` printed its address and register answers the catalogue.
      server = await startNuxt(target, 'dev', dir, { ...HARNESS_ENV, HOLD_BUILD: String(gate.port) });
    }, 300_000);
    afterAll(async () => {
      gate?.release();
      await server?.close();
      await gate?.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    test('while the build runs, the catalogue answers 200 and pages do not render, but ?ready answers 503 saying what it waits for; once a page renders, ?ready answers 200', async () => {
      await vi.waitFor(() => expect(server.output()).toContain('[fixture] build held'), { timeout: 60_000, interval: 100 });
      // Before this fix the wait URL the guides gave: 200 already.
      expect((await fetch(server.url('/__harness__/scenarios'))).status).toBe(200);
      let rendered: number | undefined;
      const page = fetch(server.url('/users/ada'), { headers: { accept: 'text/html' } }).then(async (response) => {
        rendered = Date.now();
        return { status: response.status, text: await response.text() };
      });

      const waiting = await readyAnswer(server);
      expect(rendered).toBeUndefined();
      expect(waiting).toEqual({
        status: 503,
        hint: expect.stringContaining('/__harness__/scenarios?ready answers 200 from the first time GET / on this server answers below 500'),
        body: { error: expect.stringMatching(/^The app is not serving yet: GET \/ on this server (has not answered within 2 s|answered 503)/) },
      });

      gate.release();
      // Polled with a deadline: `nuxt dev` builds for some seconds once let go.
      const ready = await vi.waitFor(async () => {
        const answer = await readyAnswer(server);
        expect(answer.status).toBe(200);
        return { answer, at: Date.now() };
      }, { timeout: 180_000, interval: 250 });
      expect(ready.answer.body).toEqual((await (await fetch(server.url('/__harness__/scenarios'))).json()) as unknown);
      // A page renders now, with the scenarios' answer.
      const profile = await fetch(server.url('/users/ada'), { headers: { accept: 'text/html' } });
      expect({ status: profile.status, text: await profile.text() }).toEqual({ status: 200, text: expect.stringContaining('User ada on GitHub') });
      expect(await page).toEqual({ status: 200, text: expect.stringContaining('User ada on GitHub') });
    }, 240_000);

    test("Node's module-hooks thread, started by a module's module.register(), is not reported as a worker without the harness's guard", () => {
      const output = server.output();
      expect(output).toContain('[fixture] registered module hooks');
      expect(output).toContain("[scenario-harness] on: intercepting outgoing calls with 3 scenarios");
      expect(output).not.toContain('started without');
      expect(output).not.toMatch(/ERROR.*scenario-harness/);
    });
  });
}
