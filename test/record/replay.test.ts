import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadScenarios } from 'scenario-harness';
import { afterEach, expect, test } from 'vitest';
import type { RecordedExchange } from '../../src/record/recorded-exchange.js';
import { scenarioFromTraffic } from '../../src/record/scenario-from-traffic.js';
import { startHarness } from '../engine/with-harness.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
const servers: Server[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve)))));

/** A real upstream on loopback: gzip JSON, a form endpoint, an image, a stream of events, a poll. */
async function startUpstream(): Promise<string> {
  let polls = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const url = new URL(req.url!, 'http://x');
      res.setHeader('date', new Date().toUTCString());
      res.setHeader('x-request-id', `req_${Math.random()}`);
      if (url.pathname === '/v1/customers/cus_1') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', etag: 'W/"1"' });
        res.end(gzipSync(JSON.stringify({ id: 'cus_1', email: 'ada@example.test', api_key: 'ak_live_1234567890' })));
      } else if (url.pathname === '/v1/charges') {
        res.writeHead(201, { 'content-type': 'application/json', 'set-cookie': 'sid=abcdef123456' });
        res.end(JSON.stringify({ id: 'ch_1', received: new URLSearchParams(body).get('amount') }));
      } else if (url.pathname === '/logo.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(PNG);
      } else if (url.pathname === '/v1/chat') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('data: {"delta":"Hel"}\n\ndata: {"delta":"lo"}\n\ndata: [DONE]\n\n');
      } else {
        polls++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: polls < 2 ? 'pending' : 'done' }));
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** One call over node:http, recorded with the bytes as they came over the wire (gzip left as is). */
function record(method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<RecordedExchange> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          request: { method, url, headers, body },
          response: { status: res.statusCode!, headers: res.headers as IncomingHttpHeaders as Record<string, string | string[]>, body: new Uint8Array(Buffer.concat(chunks)) },
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('calls recorded from a real upstream replay through a harness, byte for byte where it matters, with the upstream gone', async () => {
  const upstream = await startUpstream();
  const form = { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer sk_test_replay_123456' };
  const exchanges = [
    await record('GET', `${upstream}/v1/customers/cus_1?_=${Date.now()}`, { authorization: 'Bearer sk_test_replay_123456', 'accept-encoding': 'gzip' }),
    await record('POST', `${upstream}/v1/charges`, form, 'amount=2000&currency=usd&metadata[order]=7'),
    await record('GET', `${upstream}/logo.png`),
    await record('POST', `${upstream}/v1/chat`, { 'content-type': 'application/json' }, '{"model":"m","stream":true}'),
    await record('GET', `${upstream}/v1/jobs/1`),
    await record('GET', `${upstream}/v1/jobs/1`),
    await record('GET', `${upstream}/v1/jobs/1`),
  ];
  const recorded = await scenarioFromTraffic(exchanges, { scenarioId: 'recorded', recordedAt: '2024-06-20T10:00:00Z' });
  const text = await recorded.toFileText('yaml');
  expect(text).not.toContain('sk_test_replay_123456');
  expect(text).not.toContain('ak_live_1234567890');
  expect(text).not.toContain('abcdef123456');
  await new Promise((resolve) => servers.pop()!.close(resolve));

  const file = join(mkdtempSync(join(tmpdir(), 'recorded-')), 'recorded.yaml');
  writeFileSync(file, text);
  const { asTest } = await startHarness(await loadScenarios(file));
  await asTest('recorded', async () => {
    const customer = await fetch(`${upstream}/v1/customers/cus_1?_=${Date.now() + 1}`, { headers: { authorization: 'Bearer a-different-key' } });
    expect([customer.status, customer.headers.get('content-encoding'), customer.headers.get('date'), await customer.json()]).toEqual([200, null, null, { id: 'cus_1', email: 'ada@example.test', api_key: '[redacted]' }]);

    const charge = await fetch(`${upstream}/v1/charges`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'currency=usd&amount=2000&metadata[order]=7&extra=1' });
    expect([charge.status, charge.headers.get('set-cookie'), await charge.json()]).toEqual([201, null, { id: 'ch_1', received: '2000' }]);

    const logo = await fetch(`${upstream}/logo.png`);
    expect([logo.headers.get('content-type'), Buffer.from(await logo.arrayBuffer())]).toEqual(['image/png', PNG]);

    const chat = await fetch(`${upstream}/v1/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"stream":true,"model":"m"}' });
    expect([chat.headers.get('content-type'), await chat.text()]).toEqual(['text/event-stream', 'data: {"delta":"Hel"}\n\ndata: {"delta":"lo"}\n\ndata: [DONE]\n\n']);

    const polls = [];
    for (let i = 0; i < 4; i++) polls.push(((await (await fetch(`${upstream}/v1/jobs/1`)).json()) as { status: string }).status);
    expect(polls).toEqual(['pending', 'done', 'done', 'done']);
  });
});
