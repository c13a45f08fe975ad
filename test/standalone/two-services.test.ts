/**
 * One switch for every service: a Node app → a second Node service → an external API answered
 * by the standalone server. The test ID travels with `propagate` (header and baggage) from the
 * app to the service and from the service to the server; the test switches scenario once, on
 * the server, and parallel tests stay apart.
 */
import express from 'express';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHarness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServe, type ServeProcess } from './serve-process.js';

const SCENARIOS = `
default:
  name: List prices
  mocks:
    - method: GET
      url: https://api.pricing.test/v1/prices/:sku
      response: { body: { sku: "{{params.sku}}", price: 10 } }
sale:
  name: Everything half price
  mocks:
    - method: GET
      url: https://api.pricing.test/v1/prices/:sku
      sequence:
        responses:
          - body: { sku: "{{params.sku}}", price: 5 }
          - body: { sku: "{{params.sku}}", price: 4 }
`;

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
let serve: ServeProcess;
let service: { url: string; stop(): void };
let app: { url: string; close(): Promise<void> };

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'two-services-'));
  writeFileSync(join(dir, 'pricing.yaml'), SCENARIOS);
  serve = await startServe([join(dir, 'pricing.yaml')]);

  const child = spawn(process.execPath, ['--import', TSX, fileURLToPath(new URL('./fixtures/pricing-service.ts', import.meta.url)), serve.url], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\S+)/.exec(chunk.toString());
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the pricing service exited (${code})`)));
  });
  service = { url, stop: () => child.kill() };

  // The app under test: its harness has no mocks for prices; it only carries the test ID to the service.
  const harness = createHarness({ enabled: true, scenarios: { default: { name: 'App', mocks: [] } }, unhandled: 'error', announce: false, propagate: { hosts: [new URL(url).host] } });
  await harness.start();
  const web = express();
  web.use(harnessMiddleware(harness));
  web.get('/checkout/:sku', async (req, res) => {
    const price = (await (await fetch(`${service.url}/price/${req.params.sku}`)).json()) as { price: number };
    res.json({ sku: req.params.sku, total: price.price * 2 });
  });
  const server = web.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  app = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.close();
      await harness.stop();
    },
  };
}, 60_000);

afterAll(async () => {
  await app?.close();
  service?.stop();
  await serve?.stop();
});

const checkout = async (testId: string, sku: string) => (await fetch(`${app.url}/checkout/${sku}`, { headers: { 'x-harness-test-id': testId } })).json();

test('one switch on the standalone server drives the app, the second service and the external API; parallel tests stay apart', async () => {
  const [onSale, listPrice] = [randomUUID(), randomUUID()];
  const switched = await fetch(`${serve.url}/__scenario__`, { method: 'POST', headers: { 'x-harness-test-id': onSale, 'content-type': 'application/json' }, body: '{"scenario":"sale"}' });
  expect(switched.status).toBe(200);
  const [first, other] = await Promise.all([checkout(onSale, 'book'), checkout(listPrice, 'book')]);
  expect(first).toEqual({ sku: 'book', total: 10 });
  expect(other).toEqual({ sku: 'book', total: 20 });
  // The sequence position belongs to the test on the server: its next call gets the next step.
  expect(await checkout(onSale, 'pen')).toEqual({ sku: 'pen', total: 8 });
  // The server's journal shows the calls the second service made for each test.
  const journal = (await (await fetch(`${serve.url}/__harness__/journal`, { headers: { 'x-harness-test-id': onSale } })).json()) as { calls: { url: string; scenarioId: string }[] };
  expect(journal.calls.map(({ url, scenarioId }) => [url, scenarioId])).toEqual([
    ['https://api.pricing.test/v1/prices/book', 'sale'],
    ['https://api.pricing.test/v1/prices/pen', 'sale'],
  ]);
});
