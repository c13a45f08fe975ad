import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness } from 'scenario-harness';
import { createHarnessClient, type HarnessClient } from 'scenario-harness/client';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { createApp } from './app.js';
import { scenarios } from './scenarios.js';

const harness = createHarness({ enabled: true, scenarios, unhandled: 'error' });
let server: Server;
let baseURL: string;
let client: HarnessClient<typeof scenarios>;

beforeAll(async () => {
  await harness.start();
  server = createApp(harness).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await harness.stop();
});

// One client per test: its own test ID, so tests may run concurrently against one app.
beforeEach(() => {
  client = createHarnessClient<typeof scenarios>({ baseURL });
});
afterEach(() => client.endTest());

/** Call the app as this test: client.headers carries the test ID. */
const profile = async (login: string) => {
  const response = await fetch(`${baseURL}/profile/${login}`, { headers: client.headers });
  return { status: response.status, body: await response.json() };
};

test('shows a profile from GitHub', async () => {
  expect(await profile('octocat')).toEqual({ status: 200, body: { login: 'octocat', popular: true } });
});

test('says so when GitHub is down', async () => {
  await client.switchScenario('githubDown');
  expect(await profile('octocat')).toEqual({ status: 502, body: { error: 'GitHub is unavailable, try again later' } });
});

test('a flaky GitHub answers on the second try', async () => {
  await client.switchScenario('githubDown', { variant: 'flaky' });
  expect((await profile('octocat')).status).toBe(502);
  expect((await profile('octocat')).status).toBe(200);
  const state = await client.waitForState((s) => Array.isArray(s['github.calls']) && s['github.calls'].length === 2);
  expect(state).toEqual({ 'github.calls': ['octocat', 'octocat'] });
});

test('the catalogue lists what a test can switch to', async () => {
  expect(await client.listScenarios()).toEqual([
    { id: 'default', name: 'GitHub answers', variants: [] },
    { id: 'githubDown', name: 'GitHub is down', description: 'Every GitHub call answers 503', variants: ['flaky'] },
  ]);
});
