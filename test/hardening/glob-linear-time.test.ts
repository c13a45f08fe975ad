/**
 * Issue 23, items 1 and 5, and issue 37, item 11: globs never backtrack. Before, a journal filter `url=*…*Z` became one
 * anchored RegExp of `.*`s (8 stars against one 50-character URL blocked the event loop for 22 s,
 * 10 for over a minute), and a mock URL `…/*\/files/*\/*\/*\/meta` took 7.9 s for one
 * 2,440-character path. With far more stars and a longer path than that, each answer must come
 * within seconds: the request's own abort signal fails the test, no timer measures speed. Then a
 * journal filter of 1,000 stars took 3.5–6 s over 50 calls (each star a step of the program for
 * every character of every URL): runs of stars are one star now, the filter is matched without a
 * program, and it may be at most 2,048 characters long.
 */
import { createHarness, defineScenarios, isHarnessError } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHandlerApp, type App } from './apps.js';

const scenarios = defineScenarios({
  default: {
    name: 'Files',
    mocks: [
      { url: 'https://api.example.com/*/files/*/*/*/meta', response: { body: { meta: true } } },
      { url: 'https://api.example.com/*/repos/:owner/*/pulls/:number', response: { body: { owner: '{{params.owner}}', number: '{{params.number}}' } } },
      { url: 'https://long.example.com/*', response: { body: { long: true } } },
    ],
  },
});
// Quiet: each unanswered call's log line would carry a 20,000-character URL.
// 300 journal entries a test: a filter runs over every one of them.
const harness = createHarness({ enabled: true, scenarios, unhandled: 'error', announce: false, journal: { maxEntries: 300 }, logger: { info() {}, warn() {}, error() {} } });
let app: App;
let origin: string;

beforeAll(async () => {
  await harness.start();
  app = await startHandlerApp(harness, async (req, res) => {
    // The URL to call comes in the body: a request line that long would exceed Node's header limit.
    let target = '';
    for await (const chunk of req) target += String(chunk);
    const answer = await fetch(target).then(async (response) => ({ status: response.status, body: await response.json() }), (error: Error) => ({ status: 0, body: String((error.cause as Error | undefined)?.message ?? error.message) }));
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(answer));
  });
  origin = `http://127.0.0.1:${app.port}`;
});
afterAll(() => app?.close());

const callThrough = async (testId: string, target: string) => {
  const response = await fetch(`${origin}/call`, { method: 'POST', body: target, headers: { 'x-harness-test-id': testId }, signal: AbortSignal.timeout(10_000) }); // hang detection: linear matching answers in milliseconds
  return (await response.json()) as { status: number; body: unknown };
};

test('a mock URL with four stars matches (and misses) a 20,000-character path without backtracking', async () => {
  const long = 'a/'.repeat(10_000);
  expect(await callThrough('glob-1', `https://api.example.com/x/files/${long}b/c/meta`)).toEqual({ status: 200, body: { meta: true } });
  const missed = await callThrough('glob-1', `https://api.example.com/x/files/${long}b/c/metaX`);
  expect(missed.status).toBe(0);
  expect(missed.body).toContain('scenario-harness');
});

test('params between stars keep the greedy RegExp’s answers on a long path', async () => {
  const long = 'x/'.repeat(8_000);
  expect(await callThrough('glob-2', `https://api.example.com/${long}repos/ada/${long}pulls/42`)).toEqual({ status: 200, body: { owner: 'ada', number: '42' } });
});

test('a journal filter of many stars against a journal URL answers at once', async () => {
  const client = createHarnessClient({ baseURL: origin, testId: 'glob-3' });
  await callThrough('glob-3', 'https://api.example.com/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/files/b/c/d/meta');
  const stars = `${'*'.repeat(40)}Z`;
  const response = await fetch(`${origin}/__harness__/journal?testId=glob-3&url=${encodeURIComponent(stars)}`, { signal: AbortSignal.timeout(10_000) });
  expect(response.status).toBe(200);
  expect(((await response.json()) as { calls: unknown[] }).calls).toEqual([]);
  expect(await client.calls({ url: '*files*meta' })).toHaveLength(1);
});

test('journal filters of 1,000 stars, in a run or between letters, answer at once over 300 calls to 2,000-character URLs', async () => {
  const testId = 'glob-4';
  for (let i = 0; i < 300; i++) await callThrough(testId, `https://long.example.com/${'a'.repeat(2_000)}`);
  for (const pattern of [`${'*'.repeat(1_000)}Z`, `${'*a'.repeat(1_000)}Z`, `${'*a'.repeat(1_000)}*`]) {
    const response = await fetch(`${origin}/__harness__/journal?url=${encodeURIComponent(pattern)}`, { headers: { 'x-harness-test-id': testId }, signal: AbortSignal.timeout(10_000) }); // hang detection
    expect(response.status).toBe(200);
    expect(((await response.json()) as { calls: unknown[] }).calls).toHaveLength(pattern.endsWith('Z') ? 0 : 300);
  }
  const client = createHarnessClient({ baseURL: origin, testId });
  expect(await client.calls({ url: `${'*a'.repeat(1_000)}*` })).toHaveLength(300);
});

test('a journal filter longer than 2,048 characters is a 400 naming the bound; the client and getCalls refuse it too', async () => {
  const testId = 'glob-5';
  await callThrough(testId, 'https://api.example.com/x/files/a/b/c/meta');
  const journal = (url: string) => fetch(`${origin}/__harness__/journal?url=${encodeURIComponent(url)}`, { headers: { 'x-harness-test-id': testId } });
  const longest = `*${'/'.repeat(2_046)}*`;
  expect(longest).toHaveLength(2_048);
  expect(await (await journal(longest)).json()).toEqual({ testId, calls: [] });
  const refused = await journal(`${longest}meta`);
  expect(refused.status).toBe(400);
  const problem = '"url" has 2052 characters, more than the 2048 a URL filter may have. Filter on a shorter part of the URL: a substring ("/v1/charges") or a pattern with * ("*/v1/charges").';
  expect(await refused.json()).toEqual({ error: `Invalid journal filter: ${problem}` });
  const client = createHarnessClient({ baseURL: origin, testId });
  await expect(client.calls({ url: `${longest}meta` })).rejects.toThrow(`Invalid call filter for calls(): ${problem}`);
  const thrown: unknown = await harness.getCalls(testId, { url: `${longest}meta` }).catch((error: unknown) => error);
  expect(isHarnessError(thrown) && thrown.code).toBe('INVALID_ARGUMENT');
  expect((thrown as Error).message).toBe(`Invalid journal filter: ${problem}`);
});
