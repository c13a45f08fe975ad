/**
 * A process tree under register holds one set of sessions: an app whose port is owned by one
 * process and whose calls are made in another (a forked child, a worker thread — as `nuxt dev`,
 * clusters and some framework CLIs run) is switched, answered, sequenced and journaled as one,
 * and a test's own mocks added in one process answer the calls made in another.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHarnessClient } from 'scenario-harness/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cleanEnv, runWithRegister, startWithRegister, type ChildApp } from './start-registered-app.js';

const TREE_APP = fileURLToPath(new URL('./fixtures/tree-app.mjs', import.meta.url));
const PLAIN_APP = fileURLToPath(new URL('./plain-app.ts', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'scenario-harness-tree-'));
const scenarios = join(work, 'scenarios.yaml');
writeFileSync(
  scenarios,
  `default:
  name: Greets
  mocks:
    - url: https://api.tree.test/greeting
      response: { body: hello }
other:
  name: Greets otherwise, counts, and remembers
  mocks:
    - url: https://api.tree.test/greeting
      sequence: { responses: [{ body: first }, { body: second }], repeat: last }
      afterResponse: { setState: { 'greeted[]': '{{query.n}}' } }
`,
);

const as = (testId: string) => ({ headers: { 'x-harness-test-id': testId } });

for (const tree of ['fork', 'worker'] as const) {
  describe(`an app that serves from a ${tree === 'fork' ? 'forked child process' : 'worker thread'}`, () => {
    let app: ChildApp;
    beforeAll(async () => {
      app = await startWithRegister(TREE_APP, cleanEnv({ TREE: tree, HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: scenarios, HARNESS_UNHANDLED: 'error' }));
    });
    afterAll(() => app?.close());

    test('a switch answered by the front process is what the backend answers from, per test', async () => {
      const switched = await fetch(app.url('/__scenario__'), {
        method: 'POST',
        headers: { 'x-harness-test-id': `${tree}-a`, 'content-type': 'application/json' },
        body: JSON.stringify({ scenario: 'other' }),
      });
      expect(switched.status).toBe(200);
      const first = await fetch(app.url('/greeting?n=1'), as(`${tree}-a`));
      expect(first.headers.get('x-served-by')).toMatch(tree === 'fork' ? /^\d+$/ : /-worker$/);
      expect(await first.text()).toBe('first');
      expect(await (await fetch(app.url('/greeting?n=2'), as(`${tree}-a`))).text()).toBe('second');
      expect(await (await fetch(app.url('/greeting'), as(`${tree}-b`))).text()).toBe('hello');
    });

    test('the state and the journal the backend wrote are what the front serves', async () => {
      const state = (await (await fetch(app.url('/__harness__/state'), as(`${tree}-a`))).json()) as { state: Record<string, unknown> };
      expect(state.state).toEqual({ greeted: ['1', '2'] });
      const journal = (await (await fetch(app.url('/__harness__/journal'), as(`${tree}-a`))).json()) as { calls: { url: string; status: number }[] };
      expect(journal.calls.map((call) => call.status)).toEqual([200, 200]);
      expect(journal.calls[0]?.url).toBe('https://api.tree.test/greeting?n=1');
    });

    test("a test's own mocks (use()) added at the front answer the backend's calls, for that test only", async () => {
      const own = createHarnessClient({ baseURL: app.url(''), testId: `${tree}-own` });
      expect(await own.use({ url: 'https://api.tree.test/greeting', response: { body: 'from the test' } })).toBe(1);
      expect(await (await fetch(app.url('/greeting'), as(`${tree}-own`))).text()).toBe('from the test');
      expect(await (await fetch(app.url('/greeting'), as(`${tree}-b`))).text()).toBe('hello');
      await own.resetMocks();
      expect(await (await fetch(app.url('/greeting'), as(`${tree}-own`))).text()).toBe('hello');
    });

    test('ending the test at the front ends it in the backend', async () => {
      const ended = await fetch(app.url('/__scenario__'), { method: 'DELETE', ...as(`${tree}-a`) });
      expect(ended.status).toBe(200);
      expect(await (await fetch(app.url('/greeting'), as(`${tree}-a`))).text()).toBe('hello');
    });

    test('the backend says once that it shares the sessions of the process that started it', () => {
      expect(app.stderr()).toMatch(/\[scenario-harness\] sessions: process \d+ shares the test sessions of the process under register that started it\./);
    });
  });
}

test('a HARNESS_SESSION_HOST register did not write stops the app at start, saying to unset it', async () => {
  const { code, stderr } = await runWithRegister(
    PLAIN_APP,
    cleanEnv({ FRAMEWORK: 'node', UPSTREAM_ORIGIN: 'http://127.0.0.1:9', HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: scenarios, HARNESS_SESSION_HOST: 'example.com:80/x' }),
  );
  expect(code).toBe(1);
  expect(stderr).toContain('HARNESS_SESSION_HOST is "example.com:80/x", which is not an address register wrote.');
});
