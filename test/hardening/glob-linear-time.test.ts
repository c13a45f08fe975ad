/**
 * Issue 23, items 1 and 5: globs never backtrack. Before, a journal filter `url=*…*Z` became one
 * anchored RegExp of `.*`s (8 stars against one 50-character URL blocked the event loop for 22 s,
 * 10 for over a minute), and a mock URL `…/*\/files/*\/*\/*\/meta` took 7.9 s for one
 * 2,440-character path. With far more stars and a longer path than that, each answer must come
 * within seconds: the request's own abort signal fails the test, no timer measures speed.
 */
import { createHarness, defineScenarios } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHandlerApp, type App } from './apps.js';

const scenarios = defineScenarios({
  default: {
    name: 'Files',
    mocks: [
      { url: 'https://api.example.com/*/files/*/*/*/meta', response: { body: { meta: true } } },
      { url: 'https://api.example.com/*/repos/:owner/*/pulls/:number', response: { body: { owner: '{{params.owner}}', number: '{{params.number}}' } } },
    ],
  },
});
// Quiet: each unanswered call's log line would carry a 20,000-character URL.
const harness = createHarness({ enabled: true, scenarios, unhandled: 'error', announce: false, logger: { info() {}, warn() {}, error() {} } });
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
