import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import express from 'express';
import { createHarness, defineScenarios, type Harness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { harnessTest } from 'scenario-harness/playwright';
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';

// test.use({ harnessRecord: 'missing' }): the fixture starts recording before the test and, at
// its end, writes the draft scenario file of what the scenario could not answer. An app of its
// own, in this worker, calling an API by a non-loopback name that an agent resolves to a
// loopback upstream.

const scenarios = defineScenarios({
  default: { name: 'Partly mocked', mocks: [{ method: 'GET', url: '*/v1/user', response: { body: { name: 'Mocked user' } } }] },
});
const dir = mkdtempSync(join(tmpdir(), 'harness-record-'));
let app: { url: string; server: Server; harness: Harness; upstream: Server; agent: Agent; before: Dispatcher };

const test = harnessTest<typeof scenarios>().extend<object, { recordingApp: string }>({
  recordingApp: [
    // eslint-disable-next-line no-empty-pattern -- a worker fixture that needs no other fixture
    async ({}, use) => {
      const upstream = createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url, total: 42 }))).listen(0, '127.0.0.1');
      await new Promise((resolve) => upstream.once('listening', resolve));
      const api = `http://api.orders.test:${(upstream.address() as AddressInfo).port}`;
      const agent = new Agent({ connect: { lookup: (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]) } });
      const before = getGlobalDispatcher();
      setGlobalDispatcher(agent);
      const harness = createHarness({ enabled: true, unhandled: 'error', announce: false, scenarios });
      await harness.start();
      const server = express()
        .use(harnessMiddleware(harness))
        .get('/', async (_req, res) => {
          const user = (await (await fetch(`${api}/v1/user`)).json()) as { name: string };
          const orders = (await (await fetch(`${api}/v1/orders?page=1`)).json()) as { total: number };
          res.type('html').send(`<h1>${user.name}</h1><p id="total">${orders.total}</p>`);
        })
        .listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      app = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, harness, upstream, agent, before };
      await use(app.url);
      server.close();
      upstream.close();
      await harness.stop();
      setGlobalDispatcher(before);
      await agent.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ recordingApp }, use) => use(recordingApp),
});

test.describe.configure({ mode: 'serial' });
test.use({ harnessRecord: 'missing', harnessRecordDir: dir });

test('records what its scenario cannot answer', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('h1')).toHaveText('Mocked user');
  await expect(page.locator('#total')).toHaveText('42');
});

test.describe(() => {
  test.use({ harnessRecord: false });
  test('the previous test left a draft file with just the unanswered call', () => {
    const files = readdirSync(dir);
    expect(files).toEqual(['records-what-its-scenario-cannot-answer.json']);
    const file = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')) as Record<string, { mocks: { method: string; url: string; match?: unknown; response: { body: unknown } }[] }>;
    const mocks = Object.values(file)[0]!.mocks;
    expect(mocks.map((mock) => `${mock.method} ${new URL(mock.url).pathname}`)).toEqual(['GET /v1/orders']);
    expect(mocks[0]!.match).toEqual({ query: { page: '1' } });
    expect(mocks[0]!.response.body).toEqual({ path: '/v1/orders?page=1', total: 42 });
  });
});
