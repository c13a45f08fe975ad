/**
 * `scenario-harness serve` in a container, reached by a service name: without a token, the
 * control endpoints answer loopback and IP addresses, and the names given by --allowed-host or
 * HARNESS_ALLOWED_HOSTS (issue 23). `--host 127.1` stands in for 0.0.0.0, as in access.test.ts.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { sendAsBrowser } from '../conformance/send-as-browser.js';
import { startServe, type ServeProcess } from './serve-process.js';

const SHOP = fileURLToPath(new URL('./fixtures/shop.yaml', import.meta.url));
const NO_ENV = { HARNESS_TOKEN: '', HARNESS_ALLOWED_HOSTS: '' };

const running: ServeProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((serve) => serve.stop()));
});
async function serve(args: string[], env: Record<string, string> = NO_ENV): Promise<ServeProcess> {
  const started = await startServe(args, { env });
  running.push(started);
  return started;
}

/** A switch addressed to `host`, as a test in another container sends it. */
const switchAddressedTo = (url: string, host: string) =>
  sendAsBrowser(`${url}/__scenario__`, { method: 'POST', host: `${host}:${new URL(url).port}`, headers: { 'content-type': 'application/json', 'x-harness-test-id': 't-1' }, body: '{"scenario":"premium"}' });

test('a service name is refused until --allowed-host names it; the start-up line and the refusal say how', async () => {
  const plain = await serve(['--host', '127.1', '--insecure-no-token', SHOP]);
  expect(await plain.waitForOutput(/--allowed-host/)).toContain('the control endpoints answer requests addressed to loopback, IP addresses and 127.1; tests that reach this server by another name need --allowed-host <name> (or HARNESS_ALLOWED_HOSTS).');
  const refused = await switchAddressedTo(plain.url, 'harness');
  expect(refused.status).toBe(403);
  expect(JSON.parse(refused.text)).toEqual({ error: expect.stringMatching(/^Host not allowed: this control request was addressed to "harness:\d+"/) });
  expect(refused.headers['x-harness-hint']).toContain('scenario-harness serve: --allowed-host harness (or HARNESS_ALLOWED_HOSTS=harness)');

  const named = await serve(['--host', '127.1', '--insecure-no-token', '--allowed-host', 'harness', SHOP]);
  expect((await switchAddressedTo(named.url, 'harness')).status).toBe(200);
  expect((await switchAddressedTo(named.url, 'evil.example')).status).toBe(403);
});

test('HARNESS_ALLOWED_HOSTS does the same, comma-separated', async () => {
  const named = await serve(['--host', '127.1', '--insecure-no-token', SHOP], { ...NO_ENV, HARNESS_ALLOWED_HOSTS: 'mocks, harness' });
  expect((await switchAddressedTo(named.url, 'harness')).status).toBe(200);
  expect((await switchAddressedTo(named.url, 'mocks')).status).toBe(200);
});
