/**
 * `scenario-harness/register` under `NODE_ENV=production` (issue 37.13): enabled without a token it
 * used to start silently, and a request addressed by IP then switched `default-test`, the scenario
 * every real user gets. Now the app stops at start, saying why and how to opt in; with
 * HARNESS_TOKEN or HARNESS_ALLOW_PRODUCTION=true it starts.
 * @see https://github.com/scenario-harness/scenario-harness/issues/37
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startUpstream, type Upstream } from '../conformance/upstream.js';
import { cleanEnv, CONFORMANCE_SCENARIOS, PLAIN_APP, runWithRegister, startWithRegister } from './start-registered-app.js';

const TOKEN = 'b7e2d94c0a1f4e3d8c6b5a4f3e2d1c0b';
let upstream: Upstream;
beforeAll(async () => (upstream = await startUpstream()));
afterAll(() => upstream?.close());

const productionEnv = (extra: Record<string, string> = {}) =>
  cleanEnv({ NODE_ENV: 'production', FRAMEWORK: 'node', UPSTREAM_ORIGIN: upstream.origin, HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: CONFORMANCE_SCENARIOS, ...extra });
const switchDefault = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"scenario":"friendly"}' });

test('enabled without a token, the app stops at start, saying why and how to opt in deliberately', async () => {
  const { code, stdout, stderr } = await runWithRegister(PLAIN_APP, productionEnv());
  expect(code).toBe(1);
  expect(stdout).not.toContain('listening');
  expect(stderr).toContain('[scenario-harness] Failed to start the harness: NODE_ENV is "production" and the harness is enabled without access control');
  expect(stderr).toContain('HARNESS_TOKEN under scenario-harness/register');
  expect(stderr).toContain('HARNESS_ALLOW_PRODUCTION=true');
  expect(stderr).not.toContain('[scenario-harness] on:');
});

test('HARNESS_ALLOW_PRODUCTION=true starts it deliberately, and names no unknown setting', async () => {
  const app = await startWithRegister(PLAIN_APP, productionEnv({ HARNESS_ALLOW_PRODUCTION: 'true' }));
  try {
    expect(app.stderr()).toContain('[scenario-harness] on:');
    expect(app.stderr()).not.toContain('is not a setting of scenario-harness/register');
    expect((await switchDefault(app.url('/__scenario__'))).status).toBe(200);
  } finally {
    await app.close();
  }
});

test('with HARNESS_TOKEN it starts, and a switch addressed by IP without the token is refused', async () => {
  const app = await startWithRegister(PLAIN_APP, productionEnv({ HARNESS_TOKEN: TOKEN }));
  try {
    expect((await switchDefault(app.url('/__scenario__'))).status).toBe(401);
    expect((await switchDefault(app.url('/__scenario__'), { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  } finally {
    await app.close();
  }
});
