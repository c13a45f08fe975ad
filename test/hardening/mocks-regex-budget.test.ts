/**
 * Issue 37, item 5: one `POST /__harness__/mocks` with four regexes (a 310-byte body) stopped the
 * app for 10 s: every pattern was checked for catastrophic backtracking on the app's thread, for
 * up to 3 s each, with no bound per request. Now the patterns of a request are checked on a
 * worker thread, 100 ms each, 1000 ms together (the thread is stopped past that, whatever it is
 * doing), at most 50 different ones per request; past a bound, a 400 that names it. Where no
 * worker thread can start, on the app's thread, one pattern per turn of the event loop.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHandlerApp, type App } from './apps.js';

const harness = createHarness({ enabled: true, scenarios: { default: { name: 'Default', mocks: [] } }, announce: false, logger: { warn: () => {}, error: () => {} } });
let app: App;
let origin: string;

beforeAll(async () => {
  await harness.start();
  app = await startHandlerApp(harness, (_req, res) => res.end('app'));
  origin = `http://127.0.0.1:${app.port}`;
});
afterAll(() => app?.close());

/** One mock whose query matches each pattern, as a test would send it. */
function bodyWith(patterns: string[]): string {
  return JSON.stringify({ mocks: [{ url: 'https://api.x.test/search', match: { query: Object.fromEntries(patterns.map((source, i) => [`q${i}`, { regex: { source } }])) }, response: {} }] });
}

function postMocks(testId: string, body: string): Promise<Response> {
  return fetch(`${origin}/__harness__/mocks`, { method: 'POST', headers: { 'x-harness-test-id': testId, 'content-type': 'application/json' }, body });
}

/** The answer to `send()`, and the longest the event loop was held meanwhile (ms). */
async function withLoopDelay<T>(send: () => Promise<T>): Promise<{ value: T; maxDelayMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  try {
    const value = await send();
    return { value, maxDelayMs: delay.max / 1e6 };
  } finally {
    delay.disable();
  }
}

/** Patterns redos-detector cannot decide on for seconds (the four of the body). */
const SLOW = ['^((a|b|ab)*c)+$', '^(a|b|c|d|e|f|g|h)*(a|b|c|d|e|f|g|h)*(a|b|c|d|e|f|g|h)*$', '^(?:(?:a|b)*(?:b|c)*(?:c|a)*)*x$', '^((a|b|ab)*d)+$'];
/** 300 nested `(?:…)+`: one step of redos-detector takes seconds, so its own timeout never fires in time. */
const NESTED = `^${'(?:'.repeat(300)}a${')+'.repeat(300)}$`;

test('four patterns the detector cannot decide on get a 400 naming each, while the app keeps answering', async () => {
  // The first check starts the checking thread; the measure below is of a check, not of that.
  expect((await postMocks(randomUUID(), bodyWith(['^[a-z]+$']))).status).toBe(200);
  const body = bodyWith(SLOW);
  expect(Buffer.byteLength(body)).toBeLessThan(352);

  const { value, maxDelayMs } = await withLoopDelay(async () => {
    let settled = false;
    const posted = postMocks(randomUUID(), body).then((response) => {
      settled = true;
      return response;
    });
    // An app request sent after the mocks is answered before them: the check does not hold the app.
    const appAnswer = await (await fetch(`${origin}/app`)).text();
    return { appAnswer, answeredBeforeTheCheck: !settled, response: await posted };
  });
  expect(value.appAnswer).toBe('app');
  expect(value.answeredBeforeTheCheck).toBe(true);
  expect(value.response.status).toBe(400);
  const answer = (await value.response.json()) as { error: string; details: { field: string; message: string }[] };
  expect(answer.details.map(({ field }) => field)).toEqual(SLOW.map((_, i) => `mocks[0].match.query.q${i}.regex`));
  // Undecided within the pattern's 100 ms (a much faster machine may prove one catastrophic first).
  for (const { message } of answer.details) expect(message).toMatch(/is too complex to check for catastrophic backtracking: the check did not decide within 100 ms or 20000 steps|can backtrack catastrophically/);
  expect(answer.error).toMatch(/^Invalid request body: mocks\[0\]\.match\.query\.q0\.regex: is the regular expression .*move the mock into a scenario, whose patterns get 3000 ms each at start-up \(and 3 more: see details\)$/);
  // Before: 9.6 s. A generous bound: what matters is that the check runs elsewhere.
  expect(maxDelayMs).toBeLessThan(300);
});

test('a pattern whose check overruns the request budget is stopped: 400 naming the budget, and the next request is checked anew', async () => {
  const testId = randomUUID();
  const { value: response, maxDelayMs } = await withLoopDelay(() => postMocks(testId, bodyWith([NESTED, '^[0-9]+$'])));
  expect(response.status).toBe(400);
  const answer = (await response.json()) as { error: string; details: { field: string; message: string }[] };
  expect(answer.error).toContain('Invalid request body: mocks: hold regular expressions whose check for catastrophic backtracking did not finish within the 1000 ms the patterns of one request may take together (2 of 2 not checked)');
  expect(answer.details.map(({ field }) => field)).toEqual(['mocks', 'mocks[0].match.query.q0.regex', 'mocks[0].match.query.q1.regex']);
  expect(answer.details[1]!.message).toContain('which was not checked for catastrophic backtracking: the patterns of this request used up the 1000 ms');
  expect(maxDelayMs).toBeLessThan(300);
  // Nothing was added; the stopped thread is replaced and a fine pattern passes.
  expect(await (await fetch(`${origin}/__harness__/mocks`, { headers: { 'x-harness-test-id': testId } })).json()).toEqual({ testId, mocks: [] });
  expect((await postMocks(testId, bodyWith(['^[0-9]+$']))).status).toBe(200);
});

test('more different patterns than a request may send get a 400 naming the cap, and nothing is added', async () => {
  const testId = randomUUID();
  const response = await postMocks(testId, bodyWith(Array.from({ length: 51 }, (_, i) => `^v${i}\\d+$`)));
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({
    error: expect.stringContaining('Invalid request body: mocks: hold 51 different regular expressions, and one request may send at most 50') as unknown,
    details: [{ path: ['mocks'], field: 'mocks', message: expect.stringContaining('Send the mocks in several requests') as unknown }],
  });
  expect(await (await fetch(`${origin}/__harness__/mocks`, { headers: { 'x-harness-test-id': testId } })).json()).toEqual({ testId, mocks: [] });
  // The same pattern fifty-one times is one pattern.
  expect((await postMocks(testId, bodyWith(Array.from({ length: 51 }, () => '^v\\d+$')))).status).toBe(200);
});

test('a pattern that can backtrack catastrophically is refused as before, and safe ones pass', async () => {
  const refused = await postMocks(randomUUID(), bodyWith(['^(a+)+$', '^[0-9a-f]{8}-[0-9a-f]{4}$']));
  expect(refused.status).toBe(400);
  const answer = (await refused.json()) as { details: { field: string; message: string }[] };
  expect(answer.details).toEqual([{ path: ['mocks', 0, 'match', 'query', 'q0', 'regex'], field: 'mocks[0].match.query.q0.regex', message: expect.stringContaining('which can backtrack catastrophically') as unknown }]);
  await expect(harness.useMocks(randomUUID(), [{ url: /^https:\/\/api\.x\.test\/users\/(?<id>\d+)$/, match: { headers: { authorization: /^Bearer \S+$/ } }, response: {} }])).resolves.toBe(1);
});

test('without worker threads (Node\'s permission model) the patterns are checked on the app\'s thread, one per turn of the event loop', async () => {
  // Bundled first: tsx compiles through esbuild's own worker thread, which the permission model refuses too.
  const cache = join(fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url)), 'scenario-harness-tests');
  mkdirSync(cache, { recursive: true });
  const folder = mkdtempSync(join(cache, 'regex-check-'));
  const script = join(folder, 'check.mjs');
  let stdout: string;
  try {
    await build({ entryPoints: [fileURLToPath(new URL('./fixtures/regex-check-without-worker.ts', import.meta.url))], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: script, logLevel: 'silent' });
    const permission = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
    ({ stdout } = await promisify(execFile)(process.execPath, [permission, '--allow-fs-read=*', '--no-warnings', script, JSON.stringify(SLOW)]));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const { workerRefused, message, maxDelayMs } = JSON.parse(stdout) as { workerRefused: boolean; message: string; maxDelayMs: number };
  expect(workerRefused).toBe(true);
  expect(message.match(/is too complex to check for catastrophic backtracking: the check did not decide within 100 ms|can backtrack catastrophically/g)).toHaveLength(SLOW.length);
  // 100 ms a pattern, with a turn of the event loop between two: 9.6 s before.
  expect(maxDelayMs).toBeLessThan(300);
});
