/**
 * The package bundled into an app by Rollup, esbuild and webpack (the versions pinned in
 * test-runtimes.json, installed outside the repository), code-splitting on, with the harness
 * started by a top-level `await harness.start()`: the bundle starts, answers each test from its
 * own scenario through fetch and node:http, loads its lazy parts (the interception library, the
 * backtracking detector for a RegExp mock, the form-body parser), and with `enabled: false`
 * starts and intercepts nothing. And a chunking where the lazily loaded interception library
 * waits on the module awaiting `start()`: the app stops at once with an error that says what to
 * change, instead of Node's silent exit code 13. The interception library (0.45) reads its HTTP
 * parser, llhttp.wasm, from beside its own module: the Rollup and esbuild builds keep it external,
 * as the docs say (webpack copies the file itself); a Rollup build that inlines it loads the copy
 * installed in node_modules, and stops at start saying what to change where there is none. The
 * app is test/bundling/fixtures/plain-app.
 *
 * Elsewhere: Vite/Rollup inside a framework is test/frameworks/sveltekit.test.ts (adapter-node
 * bundles the package); Turbopack and webpack inside Next.js are test/adapters/next*.test.ts.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createHarnessClient } from 'scenario-harness/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureAppBuild, frameworkEnv, frameworkTargets } from '../frameworks/support/framework-install.js';
import { startServerGroup, type ServerGroup } from '../support/start-server-group.js';

const TARGET = frameworkTargets('bundlers', 'Bundlers', ['rollup', 'esbuild', 'webpack'])[0]!;
const APP = fileURLToPath(new URL('./fixtures/plain-app/', import.meta.url));

const BUNDLERS = [
  { name: 'Rollup', build: 'build-rollup.mjs', main: 'build/server.mjs' },
  { name: 'esbuild', build: 'build-esbuild.mjs', main: 'build/server.mjs' },
  { name: 'webpack', build: 'build-webpack.mjs', main: 'build/server.cjs' },
] as const;

const REAL = { status: 200, text: 'hello from the real upstream' };
const MOCK = { status: 200, text: 'hello from the mock' };
const DOWN = { status: 503, text: 'the mock is down' };

/** Every file the build wrote, as paths inside `dir`. */
function filesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The real upstream the app calls: counts the calls that reached it. */
let upstream: Server;
let upstreamUrl: string;
let reachedUpstream = 0;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    reachedUpstream++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: REAL.text }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

for (const bundler of BUNDLERS) {
  describe(`the package bundled by ${bundler.name} (${TARGET.label}), started with a top-level await`, () => {
    let dir: string;
    let enabled: ServerGroup | undefined;
    let disabled: ServerGroup | undefined;
    const start = (on: boolean) =>
      startServerGroup({
        args: [bundler.main],
        cwd: dir,
        // Enabled under NODE_ENV=production, the harness starts only when allowed to (docs/reliability-and-security.md).
        env: frameworkEnv({ HARNESS_ENABLED: String(on), HARNESS_ALLOW_PRODUCTION: String(on), UPSTREAM_URL: upstreamUrl, NODE_ENV: 'production' }),
        readyAt: (output) => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1],
        what: `node ${bundler.main} (${bundler.name}, HARNESS_ENABLED=${on})`,
      });

    beforeAll(async () => {
      dir = await ensureAppBuild(TARGET, { source: APP, name: `${bundler.name.toLowerCase()}-app`, build: [bundler.build] });
      [enabled, disabled] = await Promise.all([start(true), start(false)]);
    }, 300_000);

    afterAll(async () => {
      await Promise.all([enabled?.close(), disabled?.close()]);
    });

    test('the build split the app into chunks with the package inside them', () => {
      const files = filesIn(join(dir, 'build')).filter((file) => /\.[cm]?js$/.test(file));
      expect(files.length).toBeGreaterThan(1);
      expect(files.some((file) => readFileSync(file, 'utf8').includes('x-harness-test-id'))).toBe(true);
    });

    test('the harness starts and says so once', () => {
      expect(enabled!.output().split('[scenario-harness] on: intercepting outgoing calls with 2 scenarios;')).toHaveLength(2);
    });

    test('a switched test gets its scenario through fetch and node:http while another test gets the default', async () => {
      const down = createHarnessClient({ baseURL: enabled!.origin });
      const other = createHarnessClient({ baseURL: enabled!.origin });
      await down.switchScenario('upstreamDown');
      const greeting = async (headers: Record<string, string>) => (await fetch(enabled!.url('/greeting'), { headers })).json();
      const before = reachedUpstream;
      expect(await Promise.all([greeting(down.headers), greeting(other.headers)])).toEqual([
        { fetch: DOWN, http: DOWN },
        { fetch: MOCK, http: MOCK },
      ]);
      expect(reachedUpstream).toBe(before);
      await down.endTest();
      expect(await greeting(down.headers)).toEqual({ fetch: MOCK, http: MOCK });
    });

    test('a form posted through node:http is answered by a RegExp mock that matches its parsed body', async () => {
      const client = createHarnessClient({ baseURL: enabled!.origin });
      const response = await fetch(enabled!.url('/order'), { headers: client.headers });
      expect(await response.json()).toEqual({ http: { status: 201, text: 'order taken by the mock' } });
    });

    test('with enabled: false the bundle starts, says nothing and intercepts nothing: the real upstream answers', async () => {
      expect(disabled!.output()).not.toContain('[scenario-harness]');
      const before = reachedUpstream;
      const response = await fetch(disabled!.url('/greeting'), { headers: createHarnessClient({ baseURL: disabled!.origin }).headers });
      expect(await response.json()).toEqual({ fetch: REAL, http: REAL });
      expect(reachedUpstream).toBe(before + 2);
    });
  });
}

test('a chunking where the interception library waits on the module awaiting start(): the app stops at once, saying what to change', async () => {
  const dir = await ensureAppBuild(TARGET, { source: APP, name: 'rollup-manual-chunks-app', build: ['build-rollup-manual-chunks.mjs'] });
  const env = frameworkEnv({ HARNESS_ENABLED: 'true', UPSTREAM_URL: upstreamUrl });
  const failure = await promisify(execFile)(process.execPath, ['build/server.mjs'], { cwd: dir, env, timeout: 60_000 }).then(
    () => undefined,
    (error: { code?: number; stderr?: string }) => error,
  );
  expect(failure?.code).toBe(1);
  expect(failure?.stderr).toContain(
    'HarnessError: Failed to start intercepting outgoing calls: the interception library failed to load: "@mswjs/interceptors" never finished loading (the process had nothing else left to do): the app\'s bundler put it in a chunk that imports back from a module still waiting on harness.start() at its top level, so each waits for the other.',
  );
  expect(failure?.stderr).toContain('Keep scenario-harness out of the server bundle so Node loads it from node_modules');
  expect(failure?.stderr).toContain('leave "@mswjs/interceptors" and its dependencies out of the chunk that awaits harness.start().');
}, 300_000);

test('the interception library inlined without the file it reads beside itself (llhttp.wasm): the copy installed in node_modules answers, and with none the app stops saying what to change', async () => {
  const dir = await ensureAppBuild(TARGET, { source: APP, name: 'rollup-inlined-app', build: ['build-rollup-inlined.mjs'] });
  const env = frameworkEnv({ HARNESS_ENABLED: 'true', HARNESS_ALLOW_PRODUCTION: 'true', UPSTREAM_URL: upstreamUrl, NODE_ENV: 'production' });
  const app = await startServerGroup({
    args: ['build/server.mjs'],
    cwd: dir,
    env,
    readyAt: (output) => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1],
    what: 'node build/server.mjs (Rollup, the interception library inlined)',
  });
  try {
    const before = reachedUpstream;
    const response = await fetch(app.url('/greeting'), { headers: createHarnessClient({ baseURL: app.origin }).headers });
    expect(await response.json()).toEqual({ fetch: MOCK, http: MOCK });
    expect(reachedUpstream).toBe(before);
  } finally {
    await app.close();
  }

  // The same build where no node_modules holds the library.
  const alone = mkdtempSync(join(tmpdir(), 'scenario-harness-inlined-'));
  cpSync(join(dir, 'build'), join(alone, 'build'), { recursive: true });
  const failure = await promisify(execFile)(process.execPath, ['build/server.mjs'], { cwd: alone, env, timeout: 60_000 }).then(
    () => undefined,
    (error: { code?: number; stderr?: string }) => error,
  );
  rmSync(alone, { recursive: true, force: true });
  expect(failure?.code).toBe(1);
  expect(failure?.stderr).toContain('the interception library failed to load: "@mswjs/interceptors" failed to load (ENOENT');
  expect(failure?.stderr).toMatch(
    /The app's bundler put "@mswjs\/interceptors" into the bundle without the file it reads beside its own module \(.*llhttp\.wasm\), and no node_modules where the bundle runs holds "@mswjs\/interceptors" to load instead\. Install the app's dependencies where it runs .*or keep "@mswjs\/interceptors" and its subpaths out of the bundle/,
  );
}, 300_000);
