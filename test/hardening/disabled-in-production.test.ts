/**
 * `enabled: false` is how the harness ships inside a production build: it must cost nothing and
 * touch nothing (SPEC §5). This file creates no enabled harness, so what it loads is its own.
 */
import express from 'express';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { createHarness, type ScenarioMap } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { withHarness } from 'scenario-harness/node';
import { expect, test } from 'vitest';

process.env.NODE_ENV = 'production';
const scenarios: ScenarioMap = {
  default: { name: 'D', mocks: [{ url: /^(a+)+$/, match: { query: { q: { regex: { source: '(x+x+)+y' } } } }, response: {} }] },
};
const harness = createHarness({ enabled: false, scenarios });
// The interceptors are ESM, out of require.cache's sight; test/disabled checks them on the built package.
const regexCheckerLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('redos-detector'));

test('creating and starting a disabled harness patches nothing and does not even load the regex checker', async () => {
  const before = { fetch: globalThis.fetch, request: http.request, get: http.get };
  await harness.start();
  expect({ fetch: globalThis.fetch, request: http.request, get: http.get }).toEqual(before);
  expect(regexCheckerLoaded()).toBe(false);
  await harness.stop();
});

test('the Express middleware reads no header and passes control paths to the app', async () => {
  const [handleRequest, handleError] = harnessMiddleware(harness);
  const headerReads: string[] = [];
  const req = new Proxy({ originalUrl: '/__scenario__', method: 'POST' }, { get: (target, key) => (key === 'headers' ? headerReads.push('headers') : Reflect.get(target, key)) });
  let passed = 0;
  await handleRequest(req as never, {} as never, () => void passed++);
  handleError(new Error('app error'), req as never, {} as never, (error?: unknown) => void (passed += error ? 1 : 0));
  expect({ passed, headerReads }).toEqual({ passed: 2, headerReads: [] });
});

test('over HTTP, the control endpoints belong to the app (Express and node:http)', async () => {
  const app = express();
  app.use(harnessMiddleware(harness));
  app.post('/__scenario__', (_req, res) => void res.json({ app: 'express' }));
  const servers = [http.createServer(app), http.createServer(withHarness(harness, (_req, res) => void res.end(JSON.stringify({ app: 'node' }))))];
  try {
    const answers = [];
    for (const server of servers) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/__scenario__`, {
        method: 'POST',
        headers: { 'x-harness-test-id': 't', 'content-type': 'application/json' },
        body: '{"scenario":"default"}',
      });
      answers.push(await response.json());
    }
    expect(answers).toEqual([{ app: 'express' }, { app: 'node' }]);
  } finally {
    for (const server of servers) server.close();
  }
});
