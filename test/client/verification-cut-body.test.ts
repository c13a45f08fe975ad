/**
 * A count the journal cannot back is not reported as passed: a call whose body the journal cut at
 * `maxBodyBytes` may or may not match a body filter, so `expectCalled(filter, { times })` fails
 * and says so (a `times: 0` that passed on a call it never saw was a check that could not fail).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness, defineScenarios } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { withHarness } from 'scenario-harness/node';
import { afterAll, beforeAll, expect, test } from 'vitest';

const scenarios = defineScenarios({ default: { name: 'Uploads work', mocks: [{ method: 'POST', url: 'https://api.upload.test/files', response: { status: 201, body: { ok: true } } }] } });
const harness = createHarness({ enabled: true, announce: false, unhandled: 'error', scenarios, journal: { maxBodyBytes: 64 } });
let server: Server;
let origin: string;

beforeAll(async () => {
  await harness.start();
  // The app uploads a file: a JSON body far over the journal's 64 bytes, its kind at the end.
  server = createServer(
    withHarness(harness, async (req, res) => {
      const kind = new URL(req.url!, 'http://app').searchParams.get('kind');
      const body = JSON.stringify({ data: 'x'.repeat(500), kind });
      const upload = await fetch('https://api.upload.test/files', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(upload.status).end();
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.close();
  await harness.stop();
});

test('expectCalled with a body filter and times fails on a call whose body the journal cut, naming maxBodyBytes', async () => {
  const client = createHarnessClient({ baseURL: origin });
  await fetch(`${origin}/upload?kind=avatar`, { headers: client.headers });
  for (const times of [0, 1]) {
    const failure = await client.expectCalled({ method: 'POST', url: 'https://api.upload.test/files', body: { kind: 'avatar' } }, { times }).then(
      () => 'passed',
      (error: Error) => error.message,
    );
    expect(failure).toContain(`to call POST https://api.upload.test/files with body {"kind":"avatar"} ${times === 0 ? 'never' : 'exactly once'}, but 1 call to it had a body over the journal's maxBodyBytes, kept cut, so whether it matches cannot be told (0 matched)`);
    expect(failure).toContain('Raise journal.maxBodyBytes in createHarness({ journal: { maxBodyBytes } })');
  }
  // Without a body filter, the count is certain.
  expect(await client.expectCalled({ method: 'POST', url: 'https://api.upload.test/files' }, { times: 1 })).toHaveLength(1);
  // "At least once" never passes on a body it could not see either: it fails with the cut named in the near miss.
  await expect(client.expectCalled({ url: 'https://api.upload.test/files', body: { kind: 'avatar' } })).rejects.toThrow(/the journal cut this body at journal\.maxBodyBytes/);
});
