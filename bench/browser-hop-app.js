// Child process of bench/browser-hop.js: an Express app with scenario-harness whose scenario
// answers the page's third-party call (GET https://maps.bench.test/v1/ping), and a page at `/`
// for the browser to load. Reports its port over IPC once it listens.
import express from 'express';
import { createHarness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { failChild } from './lib/proc.js';

try {
  const harness = createHarness({
    enabled: true,
    announce: false,
    unhandled: 'error',
    scenarios: { default: { name: 'Default', mocks: [{ method: 'GET', url: 'https://maps.bench.test/v1/ping', response: { body: { ok: true } } }] } },
  });
  await harness.start();
  const app = express();
  app.use(harnessMiddleware(harness));
  app.get('/', (_req, res) => res.type('html').send('<!doctype html><title>browser hop</title>'));
  const server = app.listen(0, '127.0.0.1', () => process.send({ type: 'ready', port: server.address().port }));
} catch (error) {
  failChild(error);
}
