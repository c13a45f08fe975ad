/**
 * Issue 23, item 14: an outgoing call whose JSON body nests 5,000 deep. Copied into state by
 * `setState`, it made every `GET /__harness__/state` of its test answer 500 (a stack overflow)
 * until the test ended. Now a body deeper than 256 levels is kept as its text: the call is
 * answered, and the state holds that text and is served.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness, defineScenarios } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { withHarness } from 'scenario-harness/node';
import { afterAll, beforeAll, expect, test } from 'vitest';

const DEEP = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
const scenarios = defineScenarios({
  default: {
    name: 'Echo',
    mocks: [{ method: 'POST', url: 'https://api.example.test/echo', response: { body: { ok: true } }, afterResponse: { setState: { last: '{{body}}' } } }],
  },
});
const harness = createHarness({ enabled: true, announce: false, unhandled: 'error', scenarios });
let server: Server;
let origin: string;

beforeAll(async () => {
  await harness.start();
  server = createServer(
    withHarness(harness, async (req, res) => {
      const body = new URL(req.url!, 'http://app').searchParams.get('shallow') === null ? DEEP : '[[1]]';
      const response = await fetch('https://api.example.test/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.end(String(response.status));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await harness.stop();
});

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
});
