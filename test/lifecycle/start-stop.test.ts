import http, { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';

const scenarios = (answer: string) => ({ default: { name: 'D', mocks: [{ url: `${base}/x`, response: { body: answer } }] } });

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((_req, res) => res.end('real'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const viaFetch = async () => (await fetch(`${base}/x`)).text();
const viaHttp = () =>
  new Promise<string>((resolve) => http.get(`${base}/x`, (res) => { let b = ''; res.on('data', (c) => (b += c)).on('end', () => resolve(b)); }));

test('stop() restores fetch and http, and harnesses can be started one after another', async () => {
  const originalFetch = globalThis.fetch;
  const originalRequest = http.request;
  for (const answer of ['first', 'second', 'third']) {
    const harness = createHarness({ enabled: true, scenarios: scenarios(answer) });
    await harness.start();
    await harness.start(); // idempotent
    expect([await viaFetch(), await viaHttp()]).toEqual([answer, answer]);
    await harness.stop();
    await harness.stop(); // idempotent
    expect(globalThis.fetch).toBe(originalFetch);
    expect(http.request).toBe(originalRequest);
    expect([await viaFetch(), await viaHttp()]).toEqual(['real', 'real']);
  }
});

test('a stopped harness can be started again', async () => {
  const harness = createHarness({ enabled: true, scenarios: scenarios('again') });
  await harness.start();
  await harness.stop();
  await harness.start();
  expect(await viaFetch()).toBe('again');
  await harness.stop();
});

test('two harnesses started side by side share one interceptor; stopping one keeps the other answering', async () => {
  const one = createHarness({ enabled: true, sideBySide: true, scenarios: { default: { name: 'D', mocks: [{ url: 'https://one.test/', response: { body: 'one' } }] } } });
  const two = createHarness({ enabled: true, sideBySide: true, scenarios: { default: { name: 'D', mocks: [{ url: 'https://two.test/', response: { body: 'two' } }] } } });
  await Promise.all([one.start(), two.start()]);
  expect([await (await fetch('https://one.test/')).text(), await (await fetch('https://two.test/')).text()]).toEqual(['one', 'two']);
  await one.stop();
  expect(await (await fetch('https://two.test/')).text()).toBe('two');
  await two.stop();
  expect(await viaFetch()).toBe('real');
});

test('a disabled harness starts nothing and leaves fetch alone', async () => {
  const originalFetch = globalThis.fetch;
  const harness = createHarness({ enabled: false, scenarios: scenarios('never') });
  await harness.start();
  expect(globalThis.fetch).toBe(originalFetch);
  expect(await viaFetch()).toBe('real');
  await harness.stop();
});
