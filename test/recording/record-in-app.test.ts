/**
 * Recording per test inside the running app: one test records while another replays, in the
 * same app, against real (loopback) upstreams; the draft file replays what was recorded; a
 * secret is never handed over.
 */
import express from 'express';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createHarness, loadScenarios } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { harnessMiddleware } from 'scenario-harness/express';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startUpstream } from '../interception/upstream.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0xff]);
let upstream: string;
let app: { url: string; close(): Promise<void> };
const hits: string[] = [];

beforeAll(async () => {
  const started = await startUpstream((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    let body = '';
    req.on('data', (chunk) => (body += chunk)).on('end', () => {
      if (req.url === '/profile') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-request-id': 'req-1' });
        return res.end(gzipSync(JSON.stringify({ name: 'Ada', plan: 'pro' })));
      }
      if (req.url === '/charges') return res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'ch_1', echoed: new URLSearchParams(body).get('amount') }));
      if (req.url === '/avatar.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      if (req.url === '/token') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: req.headers.authorization }));
      res.writeHead(404).end();
    });
  });
  // The "real" API: a name that is not loopback (so nothing treats it as the app's own), which an
  // agent resolves to the loopback upstream, as DNS would resolve api.stripe.com.
  upstream = `http://api.upstream.test:${new URL(started.origin).port}`;
  const agent = new Agent({ connect: { lookup: (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]) } });
  const before = getGlobalDispatcher();
  setGlobalDispatcher(agent);
  afterAll(async () => {
    setGlobalDispatcher(before);
    await agent.close();
  });
  process.env.RECORD_TEST_SECRET = 'sk_test_super_secret_value';
  const harness = createHarness({
    enabled: true,
    unhandled: 'error',
    announce: false,
    scenarios: { default: { name: 'Replay', mocks: [{ method: 'GET', url: `${upstream}/profile`, response: { body: { name: 'Mocked', plan: 'free' } } }] } },
    recording: { secrets: { env: ['RECORD_TEST_SECRET'] } },
    logger: { warn: () => {}, error: () => {} },
  });
  await harness.start();
  const web = express();
  web.use(harnessMiddleware(harness));
  web.get('/page', async (_req, res) => {
    const profile = (await (await fetch(`${upstream}/profile`)).json()) as object;
    const charge = (await (await fetch(`${upstream}/charges`, { method: 'POST', body: new URLSearchParams({ amount: '5000', currency: 'usd' }) })).json()) as object;
    const avatar = Buffer.from(await (await fetch(`${upstream}/avatar.png`)).arrayBuffer());
    res.json({ profile, charge, avatarBytes: avatar.length });
  });
  web.get('/leaky', async (_req, res) => {
    res.json(await (await fetch(`${upstream}/token`, { headers: { authorization: `Bearer ${process.env.RECORD_TEST_SECRET}` } })).json());
  });
  const server = web.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  app = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: async () => void (server.close(), await harness.stop()) };
});
afterAll(() => app?.close());

const page = (testId: string) => fetch(`${app.url}/page`, { headers: { 'x-harness-test-id': testId } });

test('a test records what its scenario cannot answer while another test replays in the same app; the draft replays it', async () => {
  const recorder = createHarnessClient({ baseURL: app.url, testId: randomUUID() });
  const replayer = createHarnessClient({ baseURL: app.url, testId: randomUUID() });
  await recorder.startRecording('missing');
  hits.length = 0;
  const [recorded, replayed] = await Promise.all([page(recorder.testId), page(replayer.testId)]);
  // The recording test: its scenario answered /profile; /charges and /avatar.png went to the upstream.
  expect(await recorded.json()).toEqual({ profile: { name: 'Mocked', plan: 'free' }, charge: { id: 'ch_1', echoed: '5000' }, avatarBytes: PNG.length });
  // The other test is not recording: unhandled 'error' fails its unmocked calls, nothing of it reaches the upstream.
  expect(replayed.status).toBe(500);
  expect(hits.sort()).toEqual(['GET /avatar.png', 'POST /charges']);

  const draft = await recorder.stopRecording();
  expect(draft.exchanges).toBe(2);
  const dir = mkdtempSync(join(tmpdir(), 'recorded-'));
  writeFileSync(join(dir, 'recorded.json'), draft.fileText);
  const scenarios = await loadScenarios(join(dir, 'recorded.json'));
  const mocks = Object.values(scenarios)[0]!.mocks;
  expect(mocks.map((mock) => `${String(mock.method)} ${String(mock.url)}`)).toEqual([`POST ${upstream}/charges`, `GET ${upstream}/avatar.png`]);
  expect(mocks[0]!.match?.body).toEqual({ amount: '5000', currency: 'usd' });
  expect(mocks[1]!.response).toMatchObject({ bodyBase64: PNG.toString('base64') });

  // Replay the draft in a harness of its own: the same answers with the upstream untouched.
  hits.length = 0;
  const replay = createHarness({ enabled: true, unhandled: 'error', announce: false, scenarios });
  await replay.start();
  try {
    const charge = await replay.run('replay', () => fetch(`${upstream}/charges`, { method: 'POST', body: new URLSearchParams({ amount: '5000', currency: 'usd' }) }));
    expect([charge.status, await charge.json()]).toEqual([201, { id: 'ch_1', echoed: '5000' }]);
    const avatar = await replay.run('replay', () => fetch(`${upstream}/avatar.png`));
    expect(Buffer.from(await avatar.arrayBuffer())).toEqual(PNG);
  } finally {
    await replay.stop();
  }
  expect(hits).toEqual([]);
});

test("'all' mode records every call, a gzip body decoded; a known secret is redacted and never handed over", async () => {
  const client = createHarnessClient({ baseURL: app.url, testId: randomUUID() });
  await client.startRecording('all');
  expect(await (await page(client.testId)).json()).toMatchObject({ profile: { name: 'Ada', plan: 'pro' } });
  await fetch(`${app.url}/leaky`, { headers: { 'x-harness-test-id': client.testId } });
  const draft = await client.stopRecording();
  expect(draft.exchanges).toBe(4);
  expect(draft.fileText).not.toContain('sk_test_super_secret_value');
  const profile = (Object.values(draft.scenarios)[0] as { mocks: { url: string; response?: { body?: unknown; headers?: Record<string, string> } }[] }).mocks.find((mock) => mock.url.endsWith('/profile'))!;
  expect(profile.response?.body).toEqual({ name: 'Ada', plan: 'pro' });
  expect(Object.keys(profile.response?.headers ?? {})).not.toContain('content-encoding');
  expect(draft.redactions.length).toBeGreaterThan(0);
});
