/**
 * The end-to-end suite every framework app runs (test/frameworks, test/register): an app that
 * shows a GitHub profile page, lets a form follow the user and lists the user's repositories,
 * all from api.github.com, tested in parallel test IDs against the scenarios in
 * test/frameworks/fixtures/scenarios (or the YAML copy register loads):
 *
 * - `GET /users/:login`: status 200 with `<h1>User ada on GitHub</h1><p>10 followers</p>`, or,
 *   when GitHub answers an error, status 502 with `<h1>502</h1><p>GitHub answered <status></p>`
 *   (only `h1` and `p` text is compared, so each framework keeps its own markup around it);
 * - a form post to `followPath` (no JavaScript, `application/x-www-form-urlencoded`): PUTs
 *   `https://api.github.com/user/following/:login` and shows `<p id="followed">You follow ada</p>`;
 * - `GET /api/users/:login/repos`: GETs `https://api.github.com/users/:login/repos`, which no
 *   scenario mocks (the call fails with the harness's message).
 */
import { closeSync, openSync, readFileSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createHarnessClient, type HarnessClient } from 'scenario-harness/client';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { ServerGroup } from '../../support/start-server-group.js';

export const UP = { status: 200, text: 'User ada on GitHub | 10 followers' };
export const DOWN = { status: 502, text: '502 | GitHub answered 503' };
/** The line the harness logs when a module that creates it was evaluated again (src/core/create-harness.ts). */
export const TOOK_OVER = 'A harness was already answering in this process';

export interface ProfileApp {
  /** The server, started. */
  server: ServerGroup;
  /** The app's folder (a dev copy the suite may edit). */
  dir: string;
  /** Remove what `start` made (a dev copy). */
  cleanup?(): void;
}

/** What the suite's tests and a file's own tests get. */
export interface ProfileContext {
  app(): ProfileApp;
  /** A client for a new test ID. */
  client(): HarnessClient;
  /** The profile page for `forTest`: its status and the text of its headings and paragraphs. */
  profile(forTest: HarnessClient, login?: string): Promise<{ status: number; text: string }>;
  /** The follow form posted as a browser without JavaScript would, from `origin` (default: the app's). */
  follow(forTest: HarnessClient, origin?: string): Promise<Response>;
}

export interface ProfileSuiteOptions {
  /** The describe block's title: framework, major, wiring, mode. */
  title: string;
  mode: 'dev' | 'production';
  start(): Promise<ProfileApp>;
  /** Where the follow form posts (SvelteKit: `/users/ada?/follow`). */
  followPath: string;
  /** Extra headers on the form post (adapter-node takes the protocol from `x-forwarded-proto`). */
  followHeaders?: Record<string, string>;
  /** How the framework refuses a cross-site form post (its CSRF check), when it does in this mode. */
  crossSiteRefusal?: { status: number; text: string };
  /** A line the app prints once at start (register's start-up line). */
  printsOnce?: string;
  /**
   * The app's file that holds the scenarios its harness module imports (dev mode): the suite edits
   * it mid-test (GitHub down answers 504 instead of 503), the dev server evaluates the harness
   * module again, and the newest definitions answer while switched tests keep their scenario.
   */
  scenariosFile?: string;
  /**
   * The line logged once when the dev server runs the edited scenarios (default TOOK_OVER: the
   * harness module evaluated again in the same process; Nuxt starts a new Nitro worker instead).
   */
  reloadLine?: string;
  /** The framework's own tests, inside the same describe block. */
  more?(context: ProfileContext): void;
}

/**
 * An edit a dev server's watcher sees whole. `writeFileSync` truncates before it writes, and on a
 * loaded machine a watcher can read the file empty in between (React Router 8's dev server then
 * failed every request with the harness's "Invalid scenario definitions" until the next edit).
 * Another length: the text written beside the app's folder, then renamed over `path`.
 */
/**
 * Write `text` to `path` and poll `check` until it passes within 30 s; if it has not, save the
 * file once more (the same text, as a person saves again) and poll 30 s more.
 * @note Under a loaded CI machine Vite once lost an edit (SvelteKit 2 dev, the second of two):
 * it landed while the dev server was still loading the module after the first, which was then
 * cached with the old text and never invalidated again. The second save comes only after a full
 * window: an earlier one (after 10 s) started a second reload of Nuxt's dev server while the
 * first was ending, and the test's next plain request was dropped by the swap.
 */
export async function editUntil(appDir: string, path: string, text: string, check: () => Promise<void>): Promise<void> {
  replaceFile(appDir, path, text);
  try {
    await vi.waitFor(check, { timeout: 30_000, interval: 100 });
  } catch {
    replaceFile(appDir, path, text);
    await vi.waitFor(check, { timeout: 30_000, interval: 100 });
  }
}

export function replaceFile(appDir: string, path: string, text: string): void {
  const bytes = Buffer.from(text);
  // Same length (the suite's 503 ↔ 504 edits): overwritten in place by one write, so the file keeps
  // its inode (a watcher can lose a file renamed over it: a second edit then went unseen) and is
  // never empty for a reader in between (writeFileSync truncates first).
  if (statSync(path).size === bytes.length) {
    const fd = openSync(path, 'r+');
    try {
      writeSync(fd, bytes, 0, bytes.length, 0);
    } finally {
      closeSync(fd);
    }
    return;
  }
  const temporary = join(dirname(appDir), `.${basename(appDir)}-edit`);
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/** Only the text of `<h1>` and `<p>` elements, comments removed. */
function headingsAndParagraphs(html: string): string {
  const text = html.replace(/<!--.*?-->/gs, '');
  return [...text.matchAll(/<(h1|p)\b[^>]*>([^<]*)<\/\1>/g)].map((match) => match[2]!.trim()).join(' | ');
}

export function describeProfileSuite(options: ProfileSuiteOptions): void {
  // A cold install and build take a while on a loaded machine: the hook's own timeout covers them.
  describe(options.title, { timeout: 60_000 }, () => {
    let running: ProfileApp | undefined;
    const app = () => {
      if (running === undefined) throw new Error('the app did not start: see the error of beforeAll');
      return running;
    };
    const context: ProfileContext = {
      app,
      client: () => createHarnessClient({ baseURL: app().server.origin }),
      profile: async (forTest, login = 'ada') => {
        // As a browser's navigation asks: Nuxt answers an error as JSON to a request that does not accept HTML.
        // A dev server may drop a request it got while it swapped its server (Nitro's worker): time out rather than hang a poll.
        const response = await fetch(app().server.url(`/users/${login}`), { headers: { ...forTest.headers, accept: 'text/html' }, signal: AbortSignal.timeout(10_000) });
        return { status: response.status, text: headingsAndParagraphs(await response.text()) };
      },
      follow: (forTest, origin = app().server.origin) =>
        fetch(app().server.url(options.followPath), {
          method: 'POST',
          headers: { ...forTest.headers, ...options.followHeaders, origin, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
          body: 'login=ada',
          redirect: 'manual',
        }),
    };
    const { client, profile, follow } = context;

    beforeAll(async () => {
      running = await options.start();
      // A dev server compiles each route on its first request: here, not in a test's time.
      const warmUp = client();
      for (const path of ['/users/ada', '/api/users/ada/repos']) await (await fetch(app().server.url(path), { headers: warmUp.headers })).arrayBuffer();
      await warmUp.endTest();
    }, 600_000);

    afterAll(async () => {
      await running?.server.close();
      running?.cleanup?.();
    });

    if (options.printsOnce !== undefined) {
      const line = options.printsOnce;
      test('the harness starts once and says so once', () => {
        expect(app().server.output().split(line)).toHaveLength(2);
      });
    }

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

    test('a form post runs as its test: the mock it calls writes that test’s state', async () => {
      const follower = client();
      const other = client();
      const response = await follow(follower);
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(/<p id="followed">\s*You follow ada\s*<\/p>/);
      expect(await follower.getState()).toEqual({ following: ['ada'] });
      expect(await other.getState()).toEqual({});
      await follower.expectCalled({ method: 'PUT', url: 'https://api.github.com/user/following/ada' }, { times: 1 });
    });

    if (options.crossSiteRefusal !== undefined) {
      const refusal = options.crossSiteRefusal;
      test('the framework still refuses a cross-site form post, while the control calls go through', async () => {
        const visitor = client();
        await visitor.switchScenario('githubDown');
        const response = await follow(visitor, 'http://evil.example');
        expect({ status: response.status, text: await response.text() }).toEqual(refusal);
        expect(await visitor.calls()).toEqual([]);
        // A DELETE the framework would refuse without a JSON content type: the client sends one.
        await visitor.endTest();
        expect(await visitor.getActiveScenario()).toBeUndefined();
      });
    }

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
      const response = await fetch(app().server.url('/api/users/ada/repos'), { headers: unmocked.headers });
      expect(response.status).toBe(500);
      await vi.waitFor(
        () => expect(app().server.output()).toContain(`No mock answers GET https://api.github.com/users/ada/repos for test "${unmocked.testId}" in scenario "default"`),
        { timeout: 5_000, interval: 50 },
      );
      expect(await unmocked.calls()).toEqual([expect.objectContaining({ url: 'https://api.github.com/users/ada/repos', answered: false, unhandled: 'failed' })]);
    });

    if (options.mode === 'dev' && options.scenariosFile !== undefined) {
      const file = options.scenariosFile;
      // Two edits, each up to 30 s (60 s with a second save) on a loaded machine.
      test('an edit to the scenarios mid-test: the newest definitions answer, switched tests keep scenario, state and journal, one warning', { timeout: 180_000 }, async () => {
        const down = client();
        const follower = client();
        const other = client();
        await down.switchScenario('githubDown');
        expect(await profile(down)).toEqual(DOWN);
        expect((await follow(follower)).status).toBe(200);
        const path = join(app().dir, file);
        const source = readFileSync(path, 'utf8');
        expect(source.split('status: 503')).toHaveLength(2);
        // The dev server evaluates the harness module again when its watcher sees the change: poll until the edit answers.
        await editUntil(app().dir, path, source.replace('status: 503', 'status: 504'), async () => expect(await profile(down)).toEqual({ status: 502, text: '502 | GitHub answered 504' }));
        expect(await profile(other)).toEqual(UP);
        expect(await down.getActiveScenario()).toEqual({ scenarioId: 'githubDown', scenarioName: 'GitHub is down' });
        expect(await follower.getState()).toEqual({ following: ['ada'] });
        expect((await down.calls()).map((call) => call.status)).toEqual(expect.arrayContaining([503, 504]));
        // A second edit: the harness is replaced again, and still only one warning was logged.
        await editUntil(app().dir, path, source, async () => expect(await profile(down)).toEqual(DOWN));
        expect(app().server.output().split(options.reloadLine ?? TOOK_OVER).length - 1).toBe(1);
      });
    }

    options.more?.(context);
  });
}
