import { randomUUID } from 'node:crypto';
import http, { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHarness } from './with-harness.js';

const API = 'https://api.x.test';
const scenarios = {
  default: { name: 'Default', mocks: [{ method: 'POST' as const, url: `${API}/charges`, response: { body: 'charged' } }] },
  s: { name: 'S', mocks: [] },
};

// A real local server reached under a non-loopback host name, through http's `lookup` option:
// what a call the harness lets through would reach.
let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((req, res) => res.end(`real server saw ${req.method} ${req.url}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function getThroughLookup(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: 'real.example.test', port, path, lookup: (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]) }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk)).on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

test("'error' fails the call with a network error and logs the test ID, scenario, call and near misses", async () => {
  const { harness, logs } = await startHarness(scenarios, { unhandled: 'error' });
  const testId = randomUUID();
  await harness.switchScenario(testId, 's');
  await expect(harness.run(testId, () => fetch(`${API}/charges`))).rejects.toThrow(TypeError);
  expect(logs).toHaveLength(1);
  expect(logs[0]).toContain(`No mock answers GET ${API}/charges for test "${testId}" in scenario "s"`);
  expect(logs[0]).toContain('method: expected POST, received GET');
  await expect(harness.run(testId, () => getThroughLookup('/x'))).rejects.toThrow();
});

test("'warn' lets the call through and logs it once per endpoint", async () => {
  const { harness, logs } = await startHarness(scenarios, { unhandled: 'warn' });
  expect(await harness.run(randomUUID(), () => getThroughLookup('/first'))).toBe('real server saw GET /first');
  expect(await harness.run(randomUUID(), () => getThroughLookup('/first'))).toBe('real server saw GET /first');
  expect(logs).toHaveLength(1);
  expect(logs[0]).toMatch(/^warn: No mock answers GET http:\/\/real\.example\.test:\d+\/first .*goes to the real network/);
});

test("'bypass' lets the call through silently", async () => {
  const { harness, logs } = await startHarness(scenarios, { unhandled: 'bypass' });
  expect(await harness.run(randomUUID(), () => getThroughLookup('/quiet'))).toBe('real server saw GET /quiet');
  expect(logs).toEqual([]);
});

test('a function decides, and gets the request, test ID, scenario and near misses', async () => {
  const seen: string[] = [];
  const { harness } = await startHarness(scenarios, {
    unhandled: (request, { testId, scenarioId, nearMisses }) => seen.push(`${request.method} ${new URL(request.url).pathname} ${testId} ${scenarioId} ${nearMisses.length}`),
  });
  await harness.run('t-fn', () => getThroughLookup('/fn'));
  // No mock has this URL: one line naming the closest mock URLs.
  expect(seen).toEqual(['GET /fn t-fn default 1']);
});

test('loopback calls that no mock answers always go through, even with unhandled: error', async () => {
  const { harness, logs } = await startHarness(scenarios, { unhandled: 'error' });
  const response = await harness.run(randomUUID(), () => fetch(`http://127.0.0.1:${port}/own-app`));
  expect(await response.text()).toBe('real server saw GET /own-app');
  const viaLocalhost = await harness.run(randomUUID(), () => fetch(`http://localhost:${port}/own-app`));
  expect(viaLocalhost.status).toBe(200);
  expect(logs).toEqual([]);
});

test('a loopback call that a mock matches is answered by the mock', async () => {
  const { harness } = await startHarness({ default: { name: 'D', mocks: [{ url: `http://127.0.0.1:${port}/mocked`, response: { body: 'from the mock' } }] } });
  expect(await (await harness.run(randomUUID(), () => fetch(`http://127.0.0.1:${port}/mocked`))).text()).toBe('from the mock');
});
