/**
 * An enabled harness under `NODE_ENV=production` without access control refuses to start
 * (issue 37.13): with the harness on by mistake in production, a request addressed by IP
 * switched `default-test`, the scenario every real user gets. `access`, `allowProduction: true`
 * or `HARNESS_ALLOW_PRODUCTION=true` let it start on purpose; the standalone server is exempt.
 * @see https://github.com/scenario-harness/scenario-harness/issues/37
 */
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { createHarness, isHarnessError, type HarnessOptions } from 'scenario-harness';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { startServe } from '../standalone/serve-process.js';
import { startHandlerApp, type App } from './apps.js';

const TOKEN = 'b7e2d94c0a1f4e3d8c6b5a4f3e2d1c0b';
const scenarios = { default: { name: 'Default', mocks: [] }, premium: { name: 'Premium', mocks: [] } };
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const apps: App[] = [];

beforeEach(() => {
  process.env.NODE_ENV = 'production';
  delete process.env.HARNESS_ALLOW_PRODUCTION;
});
afterEach(async () => {
  process.env.NODE_ENV = 'test';
  delete process.env.HARNESS_ALLOW_PRODUCTION;
  for (const app of apps.splice(0)) await app.close();
});

const harnessWith = (options: Partial<HarnessOptions> = {}) => createHarness({ enabled: true, scenarios, logger: quiet, ...options });

/** A node:http app with `harness`, started or not; every non-control request answers "app". */
async function appWith(harness: ReturnType<typeof harnessWith>): Promise<App> {
  const app = await startHandlerApp(harness, (_req, res) => void res.end('app'));
  apps.push(app);
  return app;
}

/** A switch of default-test addressed by IP, as anyone who reaches the app could send. */
const switchDefault = (app: App, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${app.port}/__scenario__`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"scenario":"premium"}' });

test('start() is refused with the reason and the ways to opt in; nothing is patched; a switch by IP changes nothing', async () => {
  const harness = harnessWith();
  const before = { fetch: globalThis.fetch, request: http.request };
  const refusal = await harness.start().then(() => undefined, (error: unknown) => error);
  expect(isHarnessError(refusal) && refusal.code).toBe('INVALID_OPTIONS');
  expect((refusal as Error).message).toMatch(/^Failed to start the harness: NODE_ENV is "production" and the harness is enabled without access control/);
  expect((refusal as Error).message).toContain('HARNESS_ALLOW_PRODUCTION=true (createHarness({ allowProduction: true }))');
  expect({ fetch: globalThis.fetch, request: http.request }).toEqual(before);

  const app = await appWith(harness);
  const answer = await switchDefault(app);
  expect(answer.status).toBe(503);
  expect(((await answer.json()) as { error: string }).error).toContain('The start failed with: Failed to start the harness: NODE_ENV is "production"');
  expect(await harness.getActiveScenario('default-test')).toBeUndefined();
  // An app request is refused too, with the same reason, rather than served with nothing intercepted.
  expect(() => harness.run('default-test', () => 'served')).toThrow(/harness\.start\(\) failed.*NODE_ENV is "production"/);
});

test('with a token it starts, and a switch without the token is 401', async () => {
  const harness = harnessWith({ access: { token: TOKEN } });
  await harness.start();
  const app = await appWith(harness);
  expect((await switchDefault(app)).status).toBe(401);
  expect((await switchDefault(app, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
});

test('allowProduction: true, or HARNESS_ALLOW_PRODUCTION=true, lets it start on purpose', async () => {
  const allowed = harnessWith({ allowProduction: true });
  await allowed.start();
  expect((await switchDefault(await appWith(allowed))).status).toBe(200);
  await apps.pop()!.close();

  process.env.HARNESS_ALLOW_PRODUCTION = 'true';
  const byEnvironment = harnessWith();
  await byEnvironment.start();
  expect((await switchDefault(await appWith(byEnvironment))).status).toBe(200);
});

test('allowProduction is checked at creation', () => {
  expect(() => harnessWith({ allowProduction: 'yes' as never })).toThrow('expected "allowProduction" to be true or false, instead got "yes".');
  expect(() => harnessWith({ allowProdution: true } as never)).toThrow('"allowProdution" is not an option (did you mean "allowProduction"?)');
});

test('a disabled harness starts silently in production, as before', async () => {
  const harness = createHarness({ enabled: false, scenarios, logger: quiet });
  await expect(harness.start()).resolves.toBeUndefined();
});

test('scenario-harness serve starts under NODE_ENV=production: a mock server carries no real user\'s traffic', async () => {
  const serve = await startServe([fileURLToPath(new URL('../standalone/fixtures/shop.yaml', import.meta.url))], { env: { NODE_ENV: 'production', HARNESS_TOKEN: '', HARNESS_ALLOWED_HOSTS: '' } });
  try {
    const answer = await fetch(`${serve.url}/__scenario__`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-harness-test-id': 't-1' }, body: '{"scenario":"premium"}' });
    expect(answer.status).toBe(200);
  } finally {
    await serve.stop();
  }
});
