/**
 * The browser's own calls (issue 26) through POST /__harness__/answer, over real HTTP: an
 * Express app with the harness, the client's answer() sending calls as a browser runner would.
 * What a page needs beyond the conformance case: bytes, delays, faults, streams, preflights,
 * request bodies, and the errors of a bad request.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHarness, type Mock } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { harnessMiddleware } from 'scenario-harness/express';
import { afterAll, beforeAll, expect, test } from 'vitest';

const API = 'https://api.page.test';
const PAGE = 'http://127.0.0.1:3000';
const BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

const scenarios = {
  default: {
    name: 'Default',
    mocks: [
      { method: 'GET', url: `${API}/logo.png`, response: { bodyBase64: BYTES.toString('base64'), headers: { 'content-type': 'image/png' } } },
      { method: 'GET', url: `${API}/me`, response: { body: { name: 'Ada' } } },
      { method: 'POST', url: `${API}/search`, match: { body: { q: 'shoes' } }, response: { body: { hits: ['{{body.q}}'] } } },
    ],
  },
} satisfies Record<string, { name: string; mocks: Mock[] }>;

const strict = createHarness({ enabled: true, scenarios, unhandled: 'error', announce: false, logger: { info() {}, warn() {}, error() {} }, limits: { maxBodyBytes: 2048 } });
const lenient = createHarness({ enabled: true, scenarios, unhandled: 'bypass', announce: false, sideBySide: true, endpoints: { answer: '/__browser__' } });
let strictOrigin: string;
let lenientOrigin: string;
const servers: Server[] = [];

async function serve(harness: typeof strict): Promise<string> {
  await harness.start();
  const app = express();
  app.use(harnessMiddleware(harness));
  app.get('/server-me', async (_req, res) => void res.json(await (await fetch(`${API}/me`)).json()));
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  strictOrigin = await serve(strict);
  lenientOrigin = await serve(lenient);
});
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await strict.stop();
  await lenient.stop();
});

const client = (baseURL = strictOrigin) => createHarnessClient({ baseURL, testId: randomUUID(), ...(baseURL === lenientOrigin ? { endpoints: { answer: '/__browser__' } } : {}) });
const bodyOf = (answer: { bodyBase64?: string }) => Buffer.from(answer.bodyBase64 ?? '', 'base64');

test('a binary body comes back byte for byte, with the CORS headers for the page', async () => {
  const answer = await client().answer({ method: 'GET', url: `${API}/logo.png`, headers: { origin: PAGE } });
  expect(answer).toMatchObject({ answered: true, status: 200, headers: { 'content-type': 'image/png', 'access-control-allow-origin': PAGE, 'access-control-expose-headers': 'content-type', vary: 'Origin' } });
  expect(bodyOf(answer as { bodyBase64: string }).equals(BYTES)).toBe(true);
});

test("a call's body reaches match.body and templates; without an Origin no CORS header is added", async () => {
  const answer = await client().answer({ method: 'POST', url: `${API}/search`, headers: { 'content-type': 'application/json' }, bodyBase64: Buffer.from('{"q":"shoes"}').toString('base64') });
  expect(answer).toMatchObject({ answered: true, status: 200 });
  expect(JSON.parse(bodyOf(answer as { bodyBase64: string }).toString('utf8'))).toEqual({ hits: ['shoes'] });
  expect(Object.keys((answer as { headers: object }).headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
});

test("a mock's delay holds the answer back, and the journal says so", async () => {
  const harness = client();
  await harness.use({ method: 'GET', url: `${API}/slow`, response: { delay: 300, body: { late: true } } });
  const started = performance.now();
  const answer = await harness.answer({ method: 'GET', url: `${API}/slow`, headers: {} });
  expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  expect(answer).toMatchObject({ answered: true, status: 200 });
  expect(await harness.calls({ url: `${API}/slow` })).toMatchObject([{ side: 'browser', delayMs: 300 }]);
});

test('network, reset and timeout faults come back as fault (the route aborts); malformed comes with its cut body', async () => {
  const harness = client();
  await harness.use(
    { method: 'GET', url: `${API}/network`, response: { error: 'network' } },
    { method: 'GET', url: `${API}/reset`, response: { error: 'reset' } },
    { method: 'GET', url: `${API}/timeout`, response: { error: 'timeout' } },
    { method: 'GET', url: `${API}/malformed`, response: { error: 'malformed', body: { name: 'Ada Lovelace' } } },
  );
  for (const fault of ['network', 'reset', 'timeout'] as const) {
    expect(await harness.answer({ method: 'GET', url: `${API}/${fault}`, headers: {} })).toEqual({ answered: true, status: 200, headers: {}, bodyBase64: '', fault });
  }
  const malformed = await harness.answer({ method: 'GET', url: `${API}/malformed`, headers: {} });
  expect(malformed).toMatchObject({ answered: true, fault: 'malformed' });
  const text = bodyOf(malformed as { bodyBase64: string }).toString('utf8');
  expect(text.length).toBeGreaterThan(0);
  expect('{"name":"Ada Lovelace"}'.startsWith(text) && text !== '{"name":"Ada Lovelace"}').toBe(true);
});

test('a stream is answered as one body: chunks joined, Server-Sent Events as their text', async () => {
  const harness = client();
  await harness.use(
    { method: 'GET', url: `${API}/chunks`, response: { stream: { chunks: ['a', { b: 1 }, 'c'], intervalMs: 5 } } },
    { method: 'GET', url: `${API}/events`, response: { stream: { events: [{ event: 'tick', data: { n: 1 } }, { data: 'done' }] } } },
  );
  expect(bodyOf((await harness.answer({ method: 'GET', url: `${API}/chunks`, headers: {} })) as { bodyBase64: string }).toString()).toBe('a{"b":1}\nc');
  const events = await harness.answer({ method: 'GET', url: `${API}/events`, headers: {} });
  expect(events).toMatchObject({ headers: { 'content-type': expect.stringContaining('text/event-stream') } });
  expect(bodyOf(events as { bodyBase64: string }).toString()).toBe('event: tick\ndata: {"n":1}\n\ndata: done\n\n');
});

test('a preflight is answered 204 only for a mocked URL and method; an unmocked one follows unhandled', async () => {
  const harness = client();
  const preflight = (url: string, method: string) => harness.answer({ method: 'OPTIONS', url, headers: { origin: PAGE, 'access-control-request-method': method, 'access-control-request-headers': 'content-type,x-client' } });
  expect(await preflight(`${API}/search`, 'POST')).toMatchObject({ answered: true, status: 204, headers: { 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type,x-client' } });
  expect(await preflight(`${API}/search`, 'DELETE')).toMatchObject({ answered: false, action: 'abort' });
  expect(await preflight(`${API}/nothing`, 'GET')).toMatchObject({ answered: false, action: 'abort' });
  // Preflights are not the calls the test verifies: only the two refused ones are journaled, as unanswered OPTIONS.
  expect((await harness.calls()).map(({ method, answered }) => [method, answered])).toEqual([['OPTIONS', false], ['OPTIONS', false]]);
});

test("under unhandled 'bypass' an unmocked call continues; a custom endpoints.answer path is used by the client", async () => {
  const answer = await client(lenientOrigin).answer({ method: 'GET', url: 'https://cdn.page.test/lib.js', headers: {} });
  expect(answer).toEqual({ answered: false, action: 'continue' });
});

test("the app's own calls keep their journal shape (no side); the browser's carry side: 'browser'", async () => {
  const harness = client();
  await fetch(`${strictOrigin}/server-me`, { headers: harness.headers });
  await harness.answer({ method: 'GET', url: `${API}/me`, headers: {} });
  const [server, browser] = await harness.calls();
  expect(server).not.toHaveProperty('side');
  expect(browser).toMatchObject({ side: 'browser', answered: true });
});

test('a bad request is a 400 naming the field; a body over limits.maxBodyBytes is a 413; only POST is allowed', async () => {
  const send = async (body: string, method = 'POST') => {
    const response = await fetch(`${strictOrigin}/__harness__/answer`, { method, headers: { 'content-type': 'application/json', 'x-harness-test-id': randomUUID() }, ...(method === 'POST' ? { body } : {}) });
    return { status: response.status, error: ((await response.json()) as { error: string }).error };
  };
  const cases: [unknown, RegExp][] = [
    [[], /expected \{ "method", "url", "headers", "bodyBase64"\? \}, instead got an array/],
    [{ method: 'GET', url: `${API}/me`, headers: {}, body: 'x' }, /unknown key "body"/],
    [{ method: 'GE T', url: `${API}/me`, headers: {} }, /"method" must be an HTTP method/],
    [{ method: 'GET', url: 'ftp://files.test/x', headers: {} }, /"url" must be an http:, https: \(a call\) or ws:, wss: \(a WebSocket\) URL/],
    [{ method: 'GET', url: `${API}/me` }, /"headers" must be an object/],
    [{ method: 'GET', url: `${API}/me`, headers: { accept: 1 } }, /"headers.accept" must be a string/],
    [{ method: 'GET', url: `${API}/me`, headers: { 'bad name': 'x' } }, /"headers.bad name" is not a valid header/],
    [{ method: 'POST', url: `${API}/me`, headers: {}, bodyBase64: 'not base64!' }, /"bodyBase64" must be the body's bytes in base64/],
  ];
  for (const [body, message] of cases) expect(await send(JSON.stringify(body)), JSON.stringify(body)).toEqual({ status: 400, error: expect.stringMatching(message) });
  expect(await send(JSON.stringify({ method: 'POST', url: `${API}/me`, headers: {}, bodyBase64: Buffer.alloc(4096).toString('base64') }))).toEqual({ status: 413, error: 'Request body too large' });
  expect(await send('', 'GET')).toEqual({ status: 405, error: 'Method GET is not allowed on /__harness__/answer. Use POST.' });
  await expect(client().answer({ method: 'GET', url: 'relative/path', headers: {} })).rejects.toThrow(/Failed to answer the browser's call GET relative\/path for test ".+": .*"url" must be the absolute URL/);
});
