/**
 * node:https calls under the harness share one default secure context when they ask for none
 * (shared-secure-context.ts: building one per call was a fifth of a mocked axios call on Node 22),
 * and a call that brings its own TLS options keeps them. Against a real HTTPS server on loopback
 * with a self-signed certificate (test/interception/fixtures, valid until 2125, CN and SAN
 * localhost): with its `ca` the call passes through and is answered; without it, the default
 * context refuses the certificate, as Node does; a mocked https call is answered either way.
 */
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHarness } from '../engine/with-harness.js';

const cert = readFileSync(new URL('./fixtures/localhost-cert.pem', import.meta.url));
const key = readFileSync(new URL('./fixtures/localhost-key.pem', import.meta.url));
const server = https.createServer({ cert, key }, (_req, res) => res.end('real over tls'));
let origin: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://localhost:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The body of an https GET, or the error's code. */
function get(url: string, options: https.RequestOptions = {}): Promise<string> {
  return new Promise((resolve) => {
    https
      .get(url, { ...options, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve(body));
      })
      .on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
  });
}

const scenarios = { default: { name: 'D', mocks: [{ url: 'https://api.x.test/hello', response: { body: 'mocked' } }] } };

test('a call with its own ca passes through on it; one without is refused by the default context, as without the harness', async () => {
  const { asTest } = await startHarness(scenarios, { unhandled: 'bypass' });
  await asTest(undefined, async () => {
    expect(await get(`${origin}/`, { ca: cert })).toBe('real over tls');
    expect(await get(`${origin}/`)).toBe('error DEPTH_ZERO_SELF_SIGNED_CERT');
    // Twice, so the second call meets the shared context built by the first.
    expect(await get(`${origin}/`)).toBe('error DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(await get(`${origin}/`, { ca: cert })).toBe('real over tls');
  });
});

test('mocked https calls are answered with and without TLS options of their own', async () => {
  const { asTest } = await startHarness(scenarios, { unhandled: 'error' });
  await asTest(undefined, async () => {
    expect(await get('https://api.x.test/hello')).toBe('mocked');
    expect(await get('https://api.x.test/hello')).toBe('mocked');
    expect(await get('https://api.x.test/hello', { ca: cert, minVersion: 'TLSv1.2' })).toBe('mocked');
  });
});
