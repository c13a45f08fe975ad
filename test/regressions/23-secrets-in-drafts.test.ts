/**
 * Issue 23 item 6: secrets in recorded and imported drafts. Each of the 17 planted secrets goes
 * through the real recording path (an app recording its calls to a loopback upstream) and
 * through HAR import; none may reach the written file. The rest of each call stays, so the
 * draft still replays.
 */
import express from 'express';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, loadScenarios } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { harnessMiddleware } from 'scenario-harness/express';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { importHar } from '../../src/import/import-har.js';
import { startUpstream } from '../interception/upstream.js';
import { resolveNamesToLoopback } from '../support/resolve-names-to-loopback.js';
import { runCli } from '../standalone/serve-process.js';
import { PLANTED, plantedHar, writtenForms } from './planted-secrets.js';

const dir = mkdtempSync(join(tmpdir(), 'planted-'));
let port: string;
let appUrl: string;

beforeAll(async () => {
  // The upstream answers each planted call by its method and path.
  const upstream = await startUpstream((req, res) => {
    req.resume().on('end', () => {
      const planted = PLANTED.find(({ request }) => request.method === req.method && request.path === req.url && req.headers.host?.startsWith(`${request.host}:`));
      if (planted === undefined) return res.writeHead(404).end();
      res.writeHead(planted.response.status, planted.response.headers).end(planted.response.body);
    });
  });
  port = new URL(upstream.origin).port;
  // Real API names (hooks.slack.com, …), which this agent resolves to the loopback upstream, as DNS would.
  const restoreDns = resolveNamesToLoopback();
  const harness = createHarness({ enabled: true, unhandled: 'error', announce: false, logger: { warn: () => {}, error: () => {} }, scenarios: { default: { name: 'D', mocks: [] } } });
  await harness.start();
  const server = express()
    .use(harnessMiddleware(harness))
    .get('/call/:i', async (req, res) => {
      const { request } = PLANTED[Number(req.params.i)]!;
      const answer = await fetch(`http://${request.host}:${port}${request.path}`, { method: request.method, headers: request.headers, body: request.body, redirect: 'manual' });
      res.json({ status: answer.status, body: await answer.text() });
    })
    .listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  afterAll(async () => {
    server.close();
    await harness.stop();
    await restoreDns();
  });
});

test.each(PLANTED.map((planted, i) => [planted.name, i] as const))('recording: %s never reaches the file', async (_name, i) => {
  const { secret } = PLANTED[i]!;
  const client = createHarnessClient({ baseURL: appUrl, testId: randomUUID() });
  await client.startRecording('all');
  const answer = (await (await fetch(`${appUrl}/call/${i}`, { headers: { 'x-harness-test-id': client.testId } })).json()) as { status: number };
  expect(answer.status).toBe(PLANTED[i]!.response.status);
  const draft = await client.stopRecording({ format: 'yaml' });
  expect(draft.exchanges).toBe(1);
  for (const form of writtenForms(secret)) expect(draft.fileText).not.toContain(form);
  // The draft is a scenario file that loads.
  const file = join(dir, `recorded-${i}.yaml`);
  writeFileSync(file, draft.fileText);
  expect(Object.values(await loadScenarios(file))[0]!.mocks).toHaveLength(1);
});

test.each(PLANTED.map((planted, i) => [planted.name, i] as const))('HAR import: %s never reaches the file', async (_name, i) => {
  const har = join(dir, `planted-${i}.har`);
  const out = join(dir, `imported-${i}.json`);
  writeFileSync(har, JSON.stringify(plantedHar([PLANTED[i]!])));
  const { recorded } = await importHar(har);
  const text = await recorded.toFileText('json');
  writeFileSync(out, text);
  for (const form of writtenForms(PLANTED[i]!.secret)) expect(text).not.toContain(form);
  expect(Object.values(await loadScenarios(out))[0]!.mocks).toHaveLength(1);
});

test('the import command writes all 17 planted calls into one file that holds none of them', async () => {
  const har = join(dir, 'planted.har');
  const out = join(dir, 'planted.json');
  writeFileSync(har, JSON.stringify(plantedHar(PLANTED)));
  const { code, stdout, stderr } = await runCli(['import', 'har', har, '--out', out]);
  expect([code, stderr]).toEqual([0, '']);
  expect(stdout).toContain(`Wrote ${out}: 1 scenario, 17 mocks`);
  const text = readFileSync(out, 'utf8');
  expect(PLANTED.filter(({ secret }) => writtenForms(secret).some((form) => text.includes(form))).map(({ name }) => name)).toEqual([]);
});

// The rule for ordinary values (docs/record-and-import.md): ids, UUIDs, dates, timestamps, hex
// digests and commit SHAs, short values and words are kept as they are, wherever they are.
test('ordinary ids, UUIDs, ISO dates, commit SHAs and cursors stay as they were: nothing redacted', async () => {
  const ordinary = {
    id: 'pi_3PfixtureIntent0123456',
    customer: 'cus_Q1w2E3r4T5y6U7',
    request_uuid: '9c1e6d3a-1b2c-4d5e-8f90-a1b2c3d4e5f6',
    created_at: '2024-06-20T10:00:00.000Z',
    created: 1718877600,
    updated_ms: 1718877600000,
    commit: { sha: '6052f0d4a1c3e9b7f2d8a0c6e4b1f3d5a7c9e2b4', tree: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
    ulid: '01HZX3K9V6Q8R2T4W7Y0B5C1DE',
    handler: 'CheckoutSessionCompletedEventHandler2',
    next_cursor: Buffer.from('{"id":12345,"created":"2024-06-20T10:00:00Z"}').toString('base64url'),
    integrity: 'sha512-Q1WQ2rFMb3BU7vNe2Sho7fbB7gLD2n3aV0vH9sK5mG+5C6jM0mN1oZ4TfA7BqB3cC4dD5eE6fF7gG8hH9iI0jJ==',
    token_type: 'bearer',
    access: 'read_write_admin',
    refresh: 30,
    amount: 4242,
    phone: '+1 415-555-0100',
    docs: 'https://docs.example.test/guide#section-2',
    note: 'Use Bearer authentication with your API key',
  };
  const request = { user_id: 'usr_0123456789', since: '2024-06-01', revision: '6052f0d4a1c3e9b7f2d8a0c6e4b1f3d5a7c9e2b4' };
  const har = join(dir, 'ordinary.har');
  writeFileSync(
    har,
    JSON.stringify({
      log: {
        entries: [
          {
            startedDateTime: '2024-06-20T10:00:00.000Z',
            request: { method: 'POST', url: 'https://api.example.test/v1/builds/9c1e6d3a-1b2c-4d5e-8f90-a1b2c3d4e5f6?page=2&order_id=ord_42', headers: [{ name: 'content-type', value: 'application/json' }], postData: { mimeType: 'application/json', text: JSON.stringify(request) } },
            response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }, { name: 'x-build-sha', value: '6052f0d4a1c3e9b7f2d8a0c6e4b1f3d5a7c9e2b4' }], content: { mimeType: 'application/json', text: JSON.stringify(ordinary) } },
          },
        ],
      },
    }),
  );
  const { recorded } = await importHar(har);
  expect(recorded.redactions).toEqual([]);
  const mock = recorded.scenarios.default!.mocks[0]!;
  expect(mock.url).toBe('https://api.example.test/v1/builds/9c1e6d3a-1b2c-4d5e-8f90-a1b2c3d4e5f6');
  expect(mock.match).toEqual({ query: { page: '2', order_id: 'ord_42' }, body: request });
  expect(mock.response).toEqual({ status: 200, headers: { 'content-type': 'application/json', 'x-build-sha': '6052f0d4a1c3e9b7f2d8a0c6e4b1f3d5a7c9e2b4' }, body: ordinary });
});
