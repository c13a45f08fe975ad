/**
 * `scenario-harness serve` with a token: --token and HARNESS_TOKEN guard the control endpoints
 * (the services' calls, and the health check, stay open), and an address beyond loopback is
 * refused without one. Nothing here binds 0.0.0.0: the refusal happens before any bind, and the
 * accepted cases use `--host 127.1`, which is not a loopback name to the server's check but
 * resolves to 127.0.0.1.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { runCli, startServe, type ServeProcess } from './serve-process.js';

const SHOP = fileURLToPath(new URL('./fixtures/shop.yaml', import.meta.url));
const TOKEN = '5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d';
const HEADER = 'x-harness-test-id';
/** No HARNESS_TOKEN from the runner's own environment. */
const NO_ENV_TOKEN = { HARNESS_TOKEN: '' };

const running: ServeProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((serve) => serve.stop()));
});
async function serve(args: string[], env: Record<string, string> = NO_ENV_TOKEN): Promise<ServeProcess> {
  const started = await startServe(args, { env });
  running.push(started);
  return started;
}

/** A switch, a read, the state and an end of a test, with these headers; the statuses they got. */
async function controlStatuses(url: string, headers: Record<string, string>): Promise<number[]> {
  const testId = randomUUID();
  const as = { [HEADER]: testId, ...headers };
  return [
    (await fetch(`${url}/__scenario__`, { method: 'POST', headers: { ...as, 'content-type': 'application/json' }, body: '{"scenario":"premium"}' })).status,
    (await fetch(`${url}/__scenario__`, { headers: as })).status,
    (await fetch(`${url}/__harness__/state`, { headers: as })).status,
    (await fetch(`${url}/__harness__/journal`, { headers: as })).status,
    (await fetch(`${url}/__scenario__`, { method: 'DELETE', headers: as })).status,
  ];
}

test('--token guards every control endpoint; the services\' calls and the health check need none', async () => {
  const { url, output } = await serve(['--token', TOKEN, SHOP]);
  expect(output()).toContain('the control endpoints require "Authorization: Bearer <token>" (--token)');
  expect(output()).not.toContain(TOKEN);
  expect(await controlStatuses(url, {})).toEqual([401, 401, 401, 401, 401]);
  expect(await controlStatuses(url, { authorization: 'Bearer wrong-token-000000000000000' })).toEqual([401, 401, 401, 401, 401]);
  expect(await controlStatuses(url, { authorization: `Bearer ${TOKEN}` })).toEqual([200, 200, 200, 200, 200]);
  const refused = await fetch(`${url}/__scenario__`, { headers: { [HEADER]: 't' } });
  expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="scenario-harness"');
  expect(await refused.json()).toEqual({ error: expect.stringMatching(/^Missing Authorization header/) });

  const testId = randomUUID();
  await fetch(`${url}/__scenario__`, { method: 'POST', headers: { [HEADER]: testId, authorization: `Bearer ${TOKEN}` }, body: '{"scenario":"premium"}' });
  const me = await fetch(`${url}/https/api.shop.example/me`, { headers: { [HEADER]: testId } });
  expect(await me.json()).toEqual({ tier: 'premium' });
  expect((await fetch(`${url}/__harness__/health`)).status).toBe(200);
});

test('HARNESS_TOKEN in the environment does the same as --token', async () => {
  const { url, output } = await serve([SHOP], { HARNESS_TOKEN: TOKEN });
  expect(output()).toContain('the control endpoints require "Authorization: Bearer <token>" (HARNESS_TOKEN)');
  expect(await controlStatuses(url, {})).toEqual([401, 401, 401, 401, 401]);
  expect(await controlStatuses(url, { authorization: `bearer ${TOKEN}` })).toEqual([200, 200, 200, 200, 200]);
});

test('without a token, on loopback, the control endpoints stay open (SPEC behaviour)', async () => {
  const { url } = await serve([SHOP]);
  expect(await controlStatuses(url, {})).toEqual([200, 200, 200, 200, 200]);
});

test('a host beyond loopback without a token is refused before anything is bound: exit 2, naming the risk and the ways out', async () => {
  for (const host of ['0.0.0.0', '127.1']) {
    const { code, stdout, stderr } = await runCli(['serve', '--port', '0', '--host', host, SHOP], { env: NO_ENV_TOKEN });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`[scenario-harness] Refusing to listen on ${host} without a token: beyond this machine, anyone who can reach it could switch any test's scenario, read test state, and read the journal and recordings, which keep the request bodies your services send to payment and identity providers.`);
    expect(stderr).toContain('HARNESS_TOKEN=$(openssl rand -hex 32)');
    expect(stderr).toContain('--insecure-no-token');
  }
});

test('a host beyond loopback is served with a token, or with --insecure-no-token and a warning', async () => {
  const guarded = await serve(['--host', '127.1', '--token', TOKEN, SHOP]);
  expect(await controlStatuses(guarded.url, {})).toEqual([401, 401, 401, 401, 401]);
  expect(await controlStatuses(guarded.url, { authorization: `Bearer ${TOKEN}` })).toEqual([200, 200, 200, 200, 200]);
  const open = await serve(['--host', '127.1', '--insecure-no-token', SHOP]);
  // The warning goes to stderr, which may arrive after the ready line on stdout.
  expect(await open.waitForOutput(/Listening on 127\.1/)).toContain('Listening on 127.1, beyond this machine, without a token (--insecure-no-token): anyone who reaches it can switch scenarios, read test state and the recorded request bodies.');
  expect(await controlStatuses(open.url, {})).toEqual([200, 200, 200, 200, 200]);
});

test('a bad or contradictory token is a usage error (exit 2) that never shows the token', async () => {
  const short = await runCli(['serve', '--token', 'tiny', SHOP], { env: NO_ENV_TOKEN });
  expect(short.code).toBe(2);
  expect(short.stderr).toContain('The token from --token cannot be used: it has 4 characters, and a token shorter than 16 can be guessed');
  expect(short.stderr).not.toContain('tiny');
  const both = await runCli(['serve', '--host', '0.0.0.0', '--insecure-no-token', SHOP], { env: { HARNESS_TOKEN: TOKEN } });
  expect(both.code).toBe(2);
  expect(both.stderr).toContain('--insecure-no-token contradicts the token given by HARNESS_TOKEN: drop one of them.');
  expect(both.stderr).not.toContain(TOKEN);
});
