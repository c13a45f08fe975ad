import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '../support/free-port.js';
import { startServe, type ServeProcess } from './serve-process.js';

const SHOP = fileURLToPath(new URL('./fixtures/shop.yaml', import.meta.url));
const HEADER = 'x-harness-test-id';

/** A real upstream on loopback: echoes what it received, gzip-compressed. */
let upstream: Server;
let upstreamOrigin: string;
/** A port nothing listens on, configured as an upstream: forwarding to it fails. */
let closedPort: number;
const received: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
/** Lets the streaming upstream send its second chunk. */
let sendRest = Promise.withResolvers<void>();
let serve: ServeProcess;
/** Forwards what no mock answers (--unhandled bypass) to its upstreams: the echo above, and the closed port. */
let forwarding: ServeProcess;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ url: req.url!, headers: req.headers, body });
      if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('first;');
        void sendRest.promise.then(() => res.end('rest'));
        return;
      }
      if (req.url === '/redirect') {
        res.writeHead(302, { location: '/elsewhere' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'set-cookie': ['a=1', 'b=2'] });
      res.end(gzipSync(JSON.stringify({ echoed: req.url, method: req.method, body })));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamOrigin = `127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  closedPort = await freePort();
  [serve, forwarding] = await Promise.all([
    startServe(['--upstream', 'https://api.stripe.com=0', '--upstream', 'https://api.shop.example=0', '--unhandled', 'error', SHOP]),
    startServe(['--upstream', `http://${upstreamOrigin}=0`, '--upstream', `http://127.0.0.1:${closedPort}=0`, '--unhandled', 'bypass', SHOP]),
  ]);
});

afterAll(async () => {
  await Promise.all([serve?.stop(), forwarding?.stop()]);
  await new Promise((resolve) => upstream?.close(resolve));
});

const as = (testId: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { [HEADER]: testId, ...(init.headers as Record<string, string>) } });
const switchTo = (testId: string, scenario: string) =>
  fetch(`${serve.url}/__scenario__`, as(testId, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scenario }) }));

test('the start-up line names the address, scenario count, files, unhandled mode and the port of each upstream', () => {
  expect(serve.output()).toContain(`Serving 3 scenarios from ${SHOP} at ${serve.url} (unhandled: error, store: memory)`);
  expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(Object.keys(serve.upstreams)).toEqual(['https://api.stripe.com', 'https://api.shop.example']);
});

test('GET /__harness__/health answers 200 JSON', async () => {
  const response = await fetch(`${serve.url}/__harness__/health`);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ status: 'ok', scenarios: 3, unhandled: 'error', store: 'memory', upstreams: serve.upstreams });
});

test('host in the path: /https/api.shop.example/orders/o-7 is answered as https://api.shop.example/orders/o-7, query and body included', async () => {
  const testId = randomUUID();
  const order = await fetch(`${serve.url}/https/api.shop.example/orders/o-7`, as(testId));
  expect(await order.json()).toEqual({ id: 'o-7', status: 'processing' });
  const charge = await fetch(`${serve.url}/https/api.stripe.com/v1/charges?currency=eur`, as(testId, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":1200}' }));
  expect(charge.status).toBe(201);
  expect(await charge.json()).toEqual({ id: 'ch_1', amount: 1200, currency: 'eur' });
  expect(await (await fetch(`${serve.url}/__harness__/state`, as(testId))).json()).toEqual({ testId, state: { 'polls': ['o-7'], lastAmount: 1200 } });
});

test('a port per upstream answers for that origin, sharing the session of the test ID with the main port', async () => {
  const testId = randomUUID();
  await switchTo(testId, 'premium');
  const shop = serve.upstreams['https://api.shop.example']!;
  expect(await (await fetch(`${shop}/me`, as(testId))).json()).toEqual({ tier: 'premium' });
  expect(await (await fetch(`${shop}/search?q=shoes`, as(testId))).json()).toEqual({ hits: 3 });
  expect(await (await fetch(`${shop}/orders/o-1`, as(testId))).json()).toEqual({ id: 'o-1', status: 'processing' });
  expect(await (await fetch(`${serve.url}/https/api.shop.example/orders/o-1`, as(testId))).json()).toEqual({ id: 'o-1', status: 'shipped' });
  const stripe = serve.upstreams['https://api.stripe.com']!;
  expect((await fetch(`${stripe}/v1/charges`, as(testId, { method: 'POST', body: '{"amount":5}' }))).status).toBe(201);
  // Control paths belong to the main port: on an upstream port they are the upstream's.
  expect((await fetch(`${shop}/__scenario__`, as(testId))).status).toBe(502);
});

test('the control API is the embedded one: SPEC answers and DELETE', async () => {
  const testId = randomUUID();
  expect((await fetch(`${serve.url}/__scenario__`, as(testId))).status).toBe(404);
  const switched = await switchTo(testId, 'declined');
  expect(await switched.json()).toEqual({ success: true, testId, scenarioId: 'declined' });
  expect(await (await fetch(`${serve.url}/__scenario__`, as(testId))).json()).toEqual({ testId, scenarioId: 'declined', scenarioName: 'Declined' });
  // SPEC §4.1's body whole (exactly `{ error }`); the help rides in x-harness-hint, as in every adapter.
  const unknown = await switchTo(testId, 'nope');
  expect({ status: unknown.status, type: unknown.headers.get('content-type'), hint: unknown.headers.get('x-harness-hint'), body: await unknown.json() }).toEqual({
    status: 400,
    type: expect.stringContaining('application/json'),
    hint: 'Registered scenarios: "default", "premium", "declined".',
    body: { error: "Scenario 'nope' not found. Did you forget to register it?" },
  });
  expect((await fetch(`${serve.url}/https/api.stripe.com/v1/charges`, as(testId, { method: 'POST' }))).status).toBe(402);
  expect(await (await fetch(`${serve.url}/__scenario__`, as(testId, { method: 'DELETE' }))).json()).toEqual({ success: true, testId });
  expect((await fetch(`${serve.url}/__scenario__`, as(testId))).status).toBe(404);
});

test("a test's own mocks answer on the standalone server before its scenario, on the main port and an upstream's", async () => {
  const testId = randomUUID();
  const post = (path: string, body: unknown) => fetch(`${serve.url}${path}`, as(testId, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  const mocks = [{ method: 'GET', url: 'https://api.shop.example/orders/:id', sequence: { responses: [{ body: { id: '{{params.id}}', status: 'held' } }, { status: 409, body: { error: 'conflict' } }] } }];
  expect(await (await post('/__harness__/mocks', { mocks })).json()).toEqual({ testId, mocks: 1 });
  expect(await (await fetch(`${serve.url}/https/api.shop.example/orders/o-9`, as(testId))).json()).toEqual({ id: 'o-9', status: 'held' });
  const second = await fetch(`${serve.upstreams['https://api.shop.example']!}/orders/o-9`, as(testId));
  expect(second.status).toBe(409);
  const [first] = (await (await fetch(`${serve.url}/__harness__/journal`, as(testId))).json() as { calls: { layer: string }[] }).calls;
  expect(first?.layer).toBe('test');
  expect(await (await post('/__harness__/state', { state: { 'user.id': 'u-1' } })).json()).toEqual({ testId, state: { 'user.id': 'u-1' } });
});

test("a browser's call answered through the standalone server shares the test's sequence with the calls it forwards", async () => {
  const testId = randomUUID();
  const post = (path: string, body: unknown) => fetch(`${serve.url}${path}`, as(testId, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  const mocks = [{ method: 'GET', url: 'https://api.shop.example/stock', sequence: { responses: [{ body: { left: 2 } }, { body: { left: 1 } }, { body: { left: 0 } }] } }];
  await post('/__harness__/mocks', { mocks });
  expect(await (await fetch(`${serve.url}/https/api.shop.example/stock`, as(testId))).json()).toEqual({ left: 2 });
  const answer = (await (await post('/__harness__/answer', { method: 'GET', url: 'https://api.shop.example/stock', headers: { origin: 'http://shop.test' } })).json()) as { answered: boolean; bodyBase64: string; headers: Record<string, string> };
  expect(answer).toMatchObject({ answered: true, headers: { 'access-control-allow-origin': 'http://shop.test' } });
  expect(JSON.parse(Buffer.from(answer.bodyBase64, 'base64').toString('utf8'))).toEqual({ left: 1 });
  expect(await (await fetch(`${serve.upstreams['https://api.shop.example']!}/stock`, as(testId))).json()).toEqual({ left: 0 });
  const { calls } = (await (await fetch(`${serve.url}/__harness__/journal`, as(testId))).json()) as { calls: { side?: string; step: number }[] };
  expect(calls.map(({ side, step }) => [side ?? 'server', step])).toEqual([['server', 0], ['browser', 1], ['server', 2]]);
});

test("unhandled: 'error' answers 502 JSON naming the call, the test ID, the scenario and the near misses", async () => {
  const testId = randomUUID();
  await switchTo(testId, 'premium');
  const response = await fetch(`${serve.url}/https/api.shop.example/search?q=hats`, as(testId));
  expect(response.status).toBe(502);
  const body = (await response.json()) as { error: string; testId: string; scenarioId: string; nearMisses: string[] };
  expect(body.error).toBe(`No mock answers GET https://api.shop.example/search for test "${testId}" in scenario "premium" (unhandled: 'error'). Add a mock for it, or start the server with --unhandled warn or --unhandled bypass.`);
  expect(body).toMatchObject({ testId, scenarioId: 'premium' });
  expect(body.nearMisses.join('\n')).toContain('GET https://api.shop.example/search (premium#1)');
  await serve.waitForOutput(new RegExp(`No mock answers GET https://api.shop.example/search for test "${testId}"`));
});

test('a path that names no upstream is a 404 saying how to write one', async () => {
  const response = await fetch(`${serve.url}/v1/charges`);
  expect(response.status).toBe(404);
  expect(((await response.json()) as { error: string }).error).toContain(`${serve.url}/https/api.example.com/v1/charges is answered as https://api.example.com/v1/charges`);
});

test('a mock with error: network drops the connection', async () => {
  await expect(fetch(`${serve.url}/https/api.shop.example/down`)).rejects.toThrow();
});

test('a configured upstream is forwarded what no mock answers: body in, decoded body and every cookie out, the test ID left behind', async () => {
  const testId = randomUUID();
  const response = await fetch(`${forwarding.url}/http/${upstreamOrigin}/echo?x=1`, {
    method: 'PUT',
    headers: { [HEADER]: testId, baggage: `a=1,harness-test-id=${testId}`, 'content-type': 'text/plain' },
    body: 'hello',
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ echoed: '/echo?x=1', method: 'PUT', body: 'hello' });
  expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  expect(response.headers.get('content-encoding')).toBeNull();
  const seen = received.at(-1)!;
  expect(seen.headers[HEADER]).toBeUndefined();
  expect(seen.headers.baggage).toBe('a=1');
  expect(seen.headers.host).toBe(upstreamOrigin);
});

test('a redirect from a forwarded upstream is passed back, not followed', async () => {
  const response = await fetch(`${forwarding.url}/http/${upstreamOrigin}/redirect`, { redirect: 'manual' });
  expect(response.status).toBe(302);
  expect(response.headers.get('location')).toBe('/elsewhere');
});

test('a forwarded body that arrives over time is streamed: the first chunk reaches the client before the upstream ends', async () => {
  sendRest = Promise.withResolvers<void>();
  const response = await fetch(`${forwarding.url}/http/${upstreamOrigin}/stream`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  expect(decoder.decode((await reader.read()).value)).toBe('first;');
  sendRest.resolve();
  let rest = '';
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += decoder.decode(chunk.value);
  expect(rest).toBe('rest');
});

test('a mock answer is sent whole, with its content-length', async () => {
  const response = await fetch(`${serve.url}/https/api.shop.example/me`);
  expect(response.headers.get('content-length')).toBe(String('{"tier":"standard"}'.length));
  expect(await response.text()).toBe('{"tier":"standard"}');
});

test('a request body no mock reads does not stall the connection: the next call on it is answered', async () => {
  const testId = randomUUID();
  await switchTo(testId, 'declined');
  const big = 'x'.repeat(200_000);
  for (let i = 0; i < 3; i++) {
    const response = await fetch(`${serve.url}/https/api.stripe.com/v1/charges`, as(testId, { method: 'POST', body: big }));
    expect(response.status).toBe(402);
    await response.arrayBuffer();
  }
});

test('an upstream that cannot be reached is a 502 naming the call and the reason', async () => {
  const response = await fetch(`${forwarding.url}/http/127.0.0.1:${closedPort}/gone`);
  expect(response.status).toBe(502);
  expect(((await response.json()) as { error: string }).error).toMatch(new RegExp(`^Failed to answer GET http://127\\.0\\.0\\.1:${closedPort}/gone: .*ECONNREFUSED.*check that it is reachable, or add a mock for it\\.$`));
});

test("with --unhandled error a loopback upstream no mock answers gets the 502 like any other: loopback is not special to the server", async () => {
  const hits = received.length;
  const response = await fetch(`${serve.url}/http/${upstreamOrigin}/echo`);
  expect(response.status).toBe(502);
  expect(((await response.json()) as { error: string }).error).toMatch(/^No mock answers GET http:\/\/127\.0\.0\.1:\d+\/echo for test "default-test" in scenario "default" \(unhandled: 'error'\)/);
  expect(received.length).toBe(hits);
});
