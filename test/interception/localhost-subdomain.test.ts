/**
 * Issue 23, item 10: `*.localhost` counted as loopback, so under `unhandled: 'error'` a call no
 * mock answered went through, and Node asked the system resolver for the name, which can ask
 * the network's DNS. Now it fails with the harness's message before any lookup (the tripwire
 * counts none); `localhost` and 127.0.0.1 still go through, and `allowHosts` lets a name through.
 */
import { createServer, type Server } from 'node:http';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { installTripwire } from './tripwire.js';

const tripwire = installTripwire();
const harness = createHarness({ enabled: true, announce: false, unhandled: 'error', logger: { info() {}, warn() {}, error() {} }, scenarios: { default: { name: 'D', mocks: [] } } });
let server: Server;
let port: number;

beforeAll(async () => {
  await harness.start();
  server = createServer((_req, res) => res.end('local')).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await harness.stop();
  tripwire.remove();
});

const causeOf = (error: unknown) => String(((error as Error).cause as Error | undefined)?.message ?? (error as Error).message);
const httpGet = (url: string) =>
  new Promise<string>((resolve, reject) => http.get(url, (res) => res.resume().on('end', () => resolve(String(res.statusCode)))).on('error', reject));

test('a call to a *.localhost name fails with the harness’s message, before any DNS lookup', async () => {
  const viaFetch = await harness.run('t1', () => fetch(`http://api.localhost:${port}/x`)).then(() => 'answered', causeOf);
  expect(viaFetch).toContain('scenario-harness');
  const viaHttp = await harness.run('t1', () => httpGet(`http://api.localhost:${port}/x`)).then(() => 'answered', causeOf);
  expect(viaHttp).toContain('scenario-harness');
  expect(tripwire.attempts).toEqual([]);
});

test('localhost and 127.0.0.1 still go through unanswered', async () => {
  expect(await harness.run('t2', async () => (await fetch(`http://localhost:${port}/`)).text())).toBe('local');
  expect(await harness.run('t2', async () => (await fetch(`http://127.0.0.1:${port}/`)).text())).toBe('local');
});
