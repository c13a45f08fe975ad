/**
 * `scenario-harness record <app-url>`: starts recording one test ID in a running app, waits for
 * Ctrl+C, writes the draft file; recording again lists what changed.
 */
import express from 'express';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHarness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startUpstream } from '../interception/upstream.js';
import { resolveNamesToLoopback } from '../support/resolve-names-to-loopback.js';

const CLI = fileURLToPath(new URL('./bin.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
let appUrl: string;
let price = 10;
let close: () => Promise<void>;

beforeAll(async () => {
  const upstream = await startUpstream((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url, price })));
  // A non-loopback name for the "real" API, resolved to the loopback upstream.
  const api = `http://api.prices.test:${new URL(upstream.origin).port}`;
  const restoreDns = resolveNamesToLoopback();
  const harness = createHarness({ enabled: true, unhandled: 'error', announce: false, logger: { warn: () => {}, error: () => {} }, scenarios: { default: { name: 'D', mocks: [] } } });
  await harness.start();
  const server = express()
    .use(harnessMiddleware(harness))
    .get('/quote/:sku', async (req, res) => void res.json(await (await fetch(`${api}/v1/prices/${req.params.sku}`)).json()))
    .listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = async () => {
    server.close();
    await harness.stop();
    await restoreDns();
  };
});
afterAll(() => close?.());

/** Run `record`, make `calls` while it records, then Ctrl+C; resolves with its output. */
function record(out: string, calls: () => Promise<void>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', TSX, CLI, 'record', appUrl, '--out', out, '--test-id', 'manual-1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('press Ctrl+C') && !output.includes('[called]')) {
        output += '[called]';
        calls().then(() => child.kill('SIGINT'), reject);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

const quote = async (sku: string) => void (await (await fetch(`${appUrl}/quote/${sku}`, { headers: { 'x-harness-test-id': 'manual-1' } })).text());

test('record writes the calls one test ID made while it ran, and recording again lists the changes', async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'record-')), 'recorded.json');
  const first = await record(out, async () => {
    await quote('book');
    await quote('pen');
  });
  expect(first.code, first.output).toBe(0);
  expect(first.output).toContain(`Wrote ${out}: 2 recorded call(s).`);
  const file = JSON.parse(readFileSync(out, 'utf8')) as Record<string, { mocks: { url: string; response: { body: unknown } }[] }>;
  const mocks = Object.values(file)[0]!.mocks;
  expect(mocks.map((mock) => new URL(mock.url).pathname)).toEqual(['/v1/prices/book', '/v1/prices/pen']);
  expect(mocks[0]!.response.body).toEqual({ path: '/v1/prices/book', price: 10 });

  price = 12;
  const second = await record(out, async () => quote('book'));
  expect(second.code, second.output).toBe(0);
  expect(second.output).toMatch(/Changes to .*recorded\.json:\nscenario "default":\n {2}- GET api\.prices\.test:\d+\/v1\/prices\/pen\n {2}~ GET api\.prices\.test:\d+\/v1\/prices\/book: response\.body\.price/);
});

test('record without --out, or with an app that is not there, fails with what to do', async () => {
  const run = (args: string[]) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', TSX, CLI, 'record', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
      child.once('exit', (code) => resolve({ code, output }));
    });
  const noOut = await run([appUrl]);
  expect([noOut.code, noOut.output]).toEqual([2, expect.stringContaining('Give --out <file>')]);
  const away = await run(['http://127.0.0.1:9', '--out', join(tmpdir(), 'x.json')]);
  expect(away.code).not.toBe(0);
  expect(away.output).toMatch(/Failed to reach http:\/\/127\.0\.0\.1:9.*Is the app running/);
});
