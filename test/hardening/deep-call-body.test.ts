/**
 * Issue 23, item 14: an outgoing call whose JSON body nests 5,000 deep. Copied into state by
 * `setState`, it made every `GET /__harness__/state` of its test answer 500 (a stack overflow)
 * until the test ended. Now a body deeper than 256 levels is kept as its text: the call is
 * answered, and the state holds that text and is served. The harness says so in one log line per
 * test (a matcher or template that expected JSON would otherwise fail with no reason given).
 */
import { createHarness, defineScenarios } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHandlerApp, type App } from './apps.js';

const DEEP = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
const scenarios = defineScenarios({
  default: {
    name: 'Echo',
    mocks: [{ method: 'POST', url: 'https://api.example.test/echo', response: { body: { ok: true } }, afterResponse: { setState: { last: '{{body}}' } } }],
  },
});
const warnings: string[] = [];
const harness = createHarness({ enabled: true, announce: false, unhandled: 'error', scenarios, logger: { warn: (line) => warnings.push(line), error: () => {} } });
const deepBodyLines = (testId: string) => warnings.filter((line) => line.includes('nests deeper than 256') && line.includes(`"${testId}"`));
let app: App;
let origin: string;

beforeAll(async () => {
  await harness.start();
  app = await startHandlerApp(harness, async (req, res) => {
    const body = new URL(req.url!, 'http://app').searchParams.get('shallow') === null ? DEEP : '[[1]]';
    const response = await fetch('https://api.example.test/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    res.end(String(response.status));
  });
  origin = `http://127.0.0.1:${app.port}`;
});
afterAll(() => app?.close());

test('a call with a JSON body 5,000 deep is answered, and its test’s state is served with the body as text', async () => {
  const client = createHarnessClient({ baseURL: origin });
  expect(await (await fetch(`${origin}/`, { headers: client.headers })).text()).toBe('200');
  const state = await fetch(`${origin}/__harness__/state`, { headers: client.headers });
  expect(state.status).toBe(200);
  expect(await state.json()).toEqual({ testId: client.testId, state: { last: DEEP } });
});

test('a shallow JSON body is still read as JSON', async () => {
  const client = createHarnessClient({ baseURL: origin });
  expect(await (await fetch(`${origin}/?shallow`, { headers: client.headers })).text()).toBe('200');
  expect(await client.getState()).toEqual({ last: [[1]] });
  expect(deepBodyLines(client.testId)).toEqual([]);
});

test('a body kept as text for its depth is logged once per test, naming the call, the test and the limit', async () => {
  const [first, second] = [createHarnessClient({ baseURL: origin }), createHarnessClient({ baseURL: origin })];
  for (const client of [first, first, second]) expect(await (await fetch(`${origin}/`, { headers: client.headers })).text()).toBe('200');
  expect(deepBodyLines(first.testId)).toHaveLength(1);
  expect(deepBodyLines(first.testId)[0]).toContain('POST https://api.example.test/echo');
  expect(deepBodyLines(second.testId)).toHaveLength(1);
});
