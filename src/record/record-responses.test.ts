import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { compileScenarios } from '../core/engine/compile-scenarios.js';
import type { MockResponse } from '../core/types.js';
import type { RecordedHeaders } from './recorded-exchange.js';
import { scenarioFromTraffic } from './scenario-from-traffic.js';

/** The recorded answer of one GET with these response headers and body. */
async function answer(headers: RecordedHeaders, body?: Uint8Array | string, status = 200, method = 'GET'): Promise<MockResponse> {
  const { scenarios, notes } = await scenarioFromTraffic([{ request: { method, url: 'https://api.test/x', headers: {} }, response: { status, headers, body } }], { recordedAt: '2024-06-20T10:00:00Z' });
  expect(() => compileScenarios(scenarios)).not.toThrow();
  const mock = scenarios.default!.mocks[0]!;
  return Object.assign((mock.response as MockResponse), notes.length > 0 ? { notes } : {});
}

const json = JSON.stringify({ id: 'ch_1', amount: 2000 });

test('volatile response headers are dropped; the others are kept, sorted, lower-case', async () => {
  const response = await answer(
    {
      'Content-Type': 'application/json',
      Date: 'Thu, 20 Jun 2024 10:00:01 GMT',
      'Set-Cookie': ['a=1; Path=/', 'b=2'],
      ETag: 'W/"abc"',
      'X-Request-Id': 'req_1',
      'Request-Id': 'req_2',
      'X-Amzn-Trace-Id': 'Root=1',
      'Content-Length': '30',
      'X-RateLimit-Remaining': '4999',
      'X-RateLimit-Limit': '5000',
      'Cache-Control': 'no-store',
      'Stripe-Version': '2024-06-20',
    },
    json,
  );
  expect(response.headers).toEqual({ 'cache-control': 'no-store', 'content-type': 'application/json', 'stripe-version': '2024-06-20', 'x-ratelimit-limit': '5000' });
});

test.each([
  ['gzip', gzipSync],
  ['x-gzip', gzipSync],
  ['deflate', deflateSync],
  ['deflate', deflateRawSync],
  ['br', brotliCompressSync],
])('a %s body is decompressed and its encoding headers dropped', async (encoding, compress) => {
  const response = await answer({ 'content-type': 'application/json', 'content-encoding': encoding, 'content-length': '9', 'transfer-encoding': 'chunked' }, new Uint8Array(compress(Buffer.from(json))));
  expect(response).toEqual({ status: 200, headers: { 'content-type': 'application/json' }, body: { id: 'ch_1', amount: 2000 } });
});

test('two encodings are undone in reverse order', async () => {
  const response = await answer({ 'content-type': 'text/plain', 'content-encoding': 'deflate, gzip' }, new Uint8Array(gzipSync(deflateSync(Buffer.from('hello')))));
  expect(response.body).toBe('hello');
});

test('a body already decoded while the header still says br (fetch, HAR) is read as it is', async () => {
  const response = await answer({ 'content-type': 'application/json', 'content-encoding': 'br' }, new TextEncoder().encode(json));
  expect(response.body).toEqual({ id: 'ch_1', amount: 2000 });
});

test('an encoding that cannot be undone keeps the bytes and the header, so the client decodes them as before', async () => {
  const bytes = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]);
  const response = await answer({ 'content-type': 'application/json', 'content-encoding': 'zstd' }, bytes);
  expect(response).toEqual({ status: 200, headers: { 'content-encoding': 'zstd', 'content-type': 'application/json' }, bodyBase64: Buffer.from(bytes).toString('base64') });
});

test('JSON objects and arrays are parsed; a JSON scalar is kept as its text', async () => {
  expect((await answer({ 'content-type': 'application/problem+json' }, '[1,2]')).body).toEqual([1, 2]);
  expect((await answer({ 'content-type': 'application/json' }, '"ok"')).body).toBe('"ok"');
  expect((await answer({}, '{"a":1}')).body).toEqual({ a: 1 });
});

test('text stays text (in its charset), binary becomes bodyBase64', async () => {
  expect((await answer({ 'content-type': 'text/html; charset=utf-8' }, '<p>hé</p>')).body).toBe('<p>hé</p>');
  expect((await answer({ 'content-type': 'text/plain; charset=iso-8859-1' }, new Uint8Array([0x68, 0xe9]))).body).toBe('hé');
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
  expect(await answer({ 'content-type': 'image/png' }, png)).toEqual({ status: 200, headers: { 'content-type': 'image/png' }, bodyBase64: 'iVBORw0KGgoA' });
  expect((await answer({ 'content-type': 'application/octet-stream' }, 'abc')).bodyBase64).toBe('YWJj');
  expect((await answer({ 'content-type': 'text/plain' }, new Uint8Array([0xff, 0xfe, 0x00]))).bodyBase64).toBe('//4A');
});

test('Server-Sent Events become stream.events, JSON data parsed', async () => {
  const sse = 'event: ping\ndata: {"n":1}\nid: 1\n\n: a comment\ndata: line one\ndata: line two\n\nretry: 10\n\ndata: [DONE]\n\n';
  const response = await answer({ 'content-type': 'text/event-stream' }, sse);
  expect(response.stream).toEqual({ events: [{ event: 'ping', data: { n: 1 }, id: '1' }, { data: 'line one\nline two' }, { data: '[DONE]' }] });
  expect(response).not.toHaveProperty('body');
});

test('no body for 204, 304, HEAD, or an empty body', async () => {
  expect(await answer({ 'content-type': 'application/json' }, '', 200)).toEqual({ status: 200, headers: { 'content-type': 'application/json' } });
  expect(await answer({}, 'x', 204)).toEqual({ status: 204 });
  expect(await answer({ 'content-type': 'text/plain' }, 'x', 200, 'HEAD')).toEqual({ status: 200, headers: { 'content-type': 'text/plain' } });
});

test('a body holding "{{" is kept as bodyBase64 so it is not read as a template; a header holding it is left out', async () => {
  const text = '<script type="text/x-handlebars">{{user.name}}</script>';
  const response = await answer({ 'content-type': 'text/html', link: '<{{x}}>' }, text);
  expect(response).toMatchObject({ status: 200, headers: { 'content-type': 'text/html' }, bodyBase64: Buffer.from(text).toString('base64') });
  expect((response as { notes: string[] }).notes).toEqual([
    'GET api.test/x: response.headers: link left out: the value holds "{{", which scenario files read as a template',
    'GET api.test/x: response.body: holds "{{", which scenario files read as a template: kept as bodyBase64 so it is sent back as recorded',
  ]);
  const fromJson = await answer({}, '{"template":"Hi {{name}}"}');
  expect(fromJson).toMatchObject({ headers: { 'content-type': 'application/json' }, bodyBase64: Buffer.from('{"template":"Hi {{name}}"}').toString('base64') });
});

test('pairs no Headers object accepts (HTTP/2 pseudo-headers in HAR files, line breaks) are left out', async () => {
  expect((await answer([[':status', '200'], ['content-type', 'text/plain'], ['x-bad', 'a\r\nb']], 'x')).headers).toEqual({ 'content-type': 'text/plain' });
});

test('headers come as a Headers object, a record with lists, or pairs', async () => {
  const asHeaders = new Headers([['content-type', 'text/plain'], ['x-a', '1'], ['set-cookie', 's=1']]);
  expect((await answer(asHeaders, 'x')).headers).toEqual({ 'content-type': 'text/plain', 'x-a': '1' });
  expect((await answer([['Content-Type', 'text/plain'], ['X-A', '1'], ['X-A', '2']], 'x')).headers).toEqual({ 'content-type': 'text/plain', 'x-a': '1, 2' });
});
