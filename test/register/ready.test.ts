/**
 * `GET /__harness__/scenarios?ready` under register: the harness answers on the app's port before
 * the app serves (a CLI that owns the port while it builds), so the ready form asks the app for a
 * page and answers 503, saying what it waits for, until one answers below 500 (issue 42, item 1).
 * The app (test/register/fixtures/loading-app.mjs) answers a 503 loading screen until the test
 * says it has built.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { cleanEnv, startWithRegister, type ChildApp } from './start-registered-app.js';

const LOADING_APP = fileURLToPath(new URL('./fixtures/loading-app.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'scenario-harness-ready-'));
const SCENARIOS = join(work, 'scenarios.yaml');
writeFileSync(SCENARIOS, "default:\n  name: Profile\n  mocks:\n    - url: https://api.plain.test/profile\n      response: { body: 'ada' }\n");

let app: ChildApp;
beforeAll(async () => {
  app = await startWithRegister(LOADING_APP, cleanEnv({ HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: SCENARIOS, HARNESS_UNHANDLED: 'error' }));
});
afterAll(() => app?.close());

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(app.url(path), { headers });
  return { status: response.status, hint: response.headers.get('x-harness-hint'), text: await response.text() };
};

test('while every page is a 503 loading screen, the catalogue answers 200 but its ready form 503, saying what it waits for; once a page answers, 200 with the same body', async () => {
  const catalogue = await get('/__harness__/scenarios');
  expect(catalogue.status).toBe(200);
  expect((await get('/')).status).toBe(503);

  const waiting = await get('/__harness__/scenarios?ready');
  expect(waiting).toEqual({
    status: 503,
    hint: '/__harness__/scenarios?ready answers 200 from the first time GET / on this server answers below 500, which means the app serves its pages: a loading screen while the app builds is a 503, and so is an error. Name another page with ?ready=/path.',
    text: JSON.stringify({ error: 'The app is not serving yet: GET / on this server answered 503 (a loading screen or an error).' }),
  });

  expect((await get('/built')).status).toBe(204);
  const ready = await get('/__harness__/scenarios?ready');
  expect(ready).toEqual({ status: 200, text: catalogue.text, hint: null });
  // Ready stays ready.
  expect(await get('/__harness__/scenarios?ready')).toEqual(ready);
});

test("the ready form asks the page it names as the probe's own test, whose calls are in that test's journal", async () => {
  expect((await get('/__harness__/scenarios?ready=/profile')).status).toBe(200);
  const journal = (await (await fetch(app.url('/__harness__/journal'), { headers: { 'x-harness-test-id': 'harness-ready-probe' } })).json()) as { calls: { url: string; status: number }[] };
  expect(journal.calls.map(({ url, status }) => ({ url, status }))).toEqual([{ url: 'https://api.plain.test/profile', status: 200 }]);
  const defaults = (await (await fetch(app.url('/__harness__/journal'))).json()) as { calls: unknown[] };
  expect(defaults.calls).toEqual([]);
});

test('a ready path that is no page of the app is a 400 that says what it takes', async () => {
  expect(await get('/__harness__/scenarios?ready=health')).toMatchObject({ status: 400, text: JSON.stringify({ error: 'Invalid ready path "health": expected a page of the app, a path that starts with one "/" and has no spaces (/__harness__/scenarios?ready=/health), or nothing for "/".' }) });
  expect((await get('/__harness__/scenarios?ready=//evil.example/')).status).toBe(400);
  expect((await get('/__harness__/scenarios?ready=%2Fa%0D%0AX-Injected:%201')).status).toBe(400);
  expect(await get('/__harness__/scenarios?ready=/__scenario__')).toMatchObject({ status: 400, text: JSON.stringify({ error: 'Invalid ready path "/__scenario__": it is a control path, which the harness answers itself. Name a page of the app (/__harness__/scenarios?ready=/health), or nothing for "/".' }) });
});
