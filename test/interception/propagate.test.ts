/**
 * `propagate.hosts`: calls to the app's own services carry the current test ID (header and
 * W3C baggage), from every client; calls to other hosts never do.
 */
import axios from 'axios';
import http from 'node:http';
import { request } from 'undici';
import { expect, test } from 'vitest';
import { startHarness } from '../engine/with-harness.js';
import { startUpstream } from './upstream.js';

const capturedFetch = globalThis.fetch;

test('calls to a propagated host carry the test ID from fetch, a captured fetch, undici, node:http and axios; other hosts get nothing', async () => {
  const seen: Record<string, string | undefined>[] = [];
  const service = await startUpstream((req, res) => {
    seen.push({ path: req.url, id: req.headers['x-harness-test-id'] as string | undefined, baggage: req.headers.baggage as string | undefined });
    res.end('ok');
  });
  const port = new URL(service.origin).port;
  // 127.0.0.1 is propagated to; localhost (the same server) is not: a stand-in for a third party.
  const { asTest } = await startHarness({ default: { name: 'D', mocks: [] } }, { unhandled: 'bypass', propagate: { hosts: [`127.0.0.1:${port}`] } });
  await asTest(undefined, async () => {
    await (await fetch(`${service.origin}/fetch`)).text();
    await (await capturedFetch(`${service.origin}/captured`)).text();
    await (await request(`${service.origin}/undici`)).body.text();
    await new Promise<void>((resolve, reject) => http.get(`${service.origin}/node-http`, (res) => res.resume().on('end', resolve)).on('error', reject));
    await axios.get(`${service.origin}/axios`, { headers: { baggage: 'tenant=acme' } });
    await (await fetch(`http://localhost:${port}/third-party`)).text();
  }, 'test 42');
  const expected = (path: string, baggage = 'harness-test-id=test%2042') => ({ path, id: 'test 42', baggage });
  expect(seen).toEqual([
    expected('/fetch'),
    expected('/captured'),
    expected('/undici'),
    expected('/node-http'),
    expected('/axios', 'tenant=acme,harness-test-id=test%2042'),
    { path: '/third-party', id: undefined, baggage: undefined },
  ]);
});
