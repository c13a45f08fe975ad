import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { APP_KINDS, head, rawRequest, startApp, type App } from './apps.js';

const scenarios = { default: { name: 'Default', mocks: [] }, premium: { name: 'Premium', mocks: [] } };

describe.each(APP_KINDS)('bad control requests over HTTP (%s)', (kind) => {
  let app: App;
  beforeAll(async () => {
    app = await startApp(kind, createHarness({ enabled: true, scenarios, logger: { warn: () => {}, error: () => {} }, control: { allowedHosts: ['app.test'] } }));
  });
  afterAll(() => app?.close());

  const post = (headers: [string, string][], body: string | Buffer = '', options?: { holdOpen?: boolean }) =>
    rawRequest(app.port, head('POST /__scenario__ HTTP/1.1', [['host', 'app.test'], ...headers]), body, options);
  const json = (response: { status: number; headers: Record<string, string>; body: string }) => ({
    status: response.status,
    contentType: response.headers['content-type'],
    body: JSON.parse(response.body) as unknown,
  });

  test('an endless chunked body gets 413 while the client is still sending', async () => {
    const chunk = 'x'.repeat(128 * 1024);
    const response = await post([['transfer-encoding', 'chunked']], `${chunk.length.toString(16)}\r\n${chunk}\r\n`, { holdOpen: true });
    expect(json(response)).toEqual({ status: 413, contentType: expect.stringContaining('application/json'), body: { error: 'Request body too large' } });
  });

  test('a body over 64 KiB with a declared Content-Length is 413, also valid JSON that a body parser accepted', async () => {
    for (const body of ['x'.repeat(1024 * 1024), JSON.stringify({ scenario: 'premium', pad: 'x'.repeat(80 * 1024) })]) {
      const response = await post([['content-type', 'application/json'], ['content-length', String(body.length)]], body);
      expect(json(response)).toMatchObject({ status: 413, body: { error: 'Request body too large' } });
    }
  });

  test('after a 413, or a 405 with a large body, the keep-alive connection serves the next request', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, body?: string) =>
      new Promise<{ status: number; reused: boolean; text: string }>((resolve, reject) => {
        const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(body.length) };
        const req = httpRequest({ agent, host: '127.0.0.1', port: app.port, method, path: '/__scenario__', headers }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, reused: req.reusedSocket, text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      expect(await send('POST', JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }))).toMatchObject({ status: 413, reused: false });
      // A method the endpoint does not serve is 405 before its body counts, whoever refused the body (express.json() before the harness too).
      expect(await send('PUT', JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }))).toMatchObject({ status: 405, reused: true });
      expect(await send('GET')).toMatchObject({ status: 404, reused: true, text: expect.stringContaining('No active scenario') });
    } finally {
      agent.destroy();
    }
  });

  // body-parser drains a refused body before it answers, so only our own reader answers early.
  test.skipIf(kind === 'express, parser before')('a declared Content-Length over the limit gets 413 before the body is sent', async () => {
    const response = await post([['content-type', 'application/json'], ['content-length', String(10 * 1024 * 1024)]], '', { holdOpen: true });
    expect(json(response)).toMatchObject({ status: 413, body: { error: 'Request body too large' } });
  });

  test('malformed JSON, non-object JSON and JSON nested 30 000 deep are 400 Invalid request body', async () => {
    for (const body of ['{"scenario":', '42', `${'['.repeat(30_000)}${']'.repeat(30_000)}`, `{"scenario":${'['.repeat(30_000)}${']'.repeat(30_000)}}`]) {
      const response = await post([['content-type', 'application/json'], ['content-length', String(body.length)]], body);
      expect(json(response)).toMatchObject({ status: 400, contentType: expect.stringContaining('application/json'), body: { error: 'Invalid request body', details: [expect.anything()] } });
    }
  });

  test('valid JSON is accepted without a content type and with text/plain', async () => {
    for (const headers of [[], [['content-type', 'text/plain;charset=UTF-8']]] as [string, string][][]) {
      const testId = randomUUID();
      const body = '{"scenario":"premium"}';
      const response = await post([...headers, ['x-harness-test-id', testId], ['content-length', String(body.length)]], body);
      expect(json(response)).toEqual({ status: 200, contentType: expect.stringContaining('application/json'), body: { success: true, testId, scenarioId: 'premium' } });
    }
  });

  test('repeated test-ID and content-type headers still get a JSON answer', async () => {
    const body = '{"scenario":"premium"}';
    const headers: [string, string][] = [['x-harness-test-id', 'a'], ['x-harness-test-id', 'b'], ['content-type', 'application/json'], ['content-type', 'text/plain'], ['content-length', String(body.length)]];
    expect(json(await post(headers, body))).toMatchObject({ status: 200, body: { testId: 'a, b' } });
  });

  test('a 300-character test ID is 400 naming the limit; 15 KiB of other headers change nothing', async () => {
    const body = '{"scenario":"premium"}';
    const long = await post([['x-harness-test-id', 'x'.repeat(300)], ['content-length', String(body.length)]], body);
    expect(json(long)).toEqual({ status: 400, contentType: expect.stringContaining('application/json'), body: { error: expect.stringContaining('limit is 256') } });
    const padded = await post([['x-padding', 'p'.repeat(15 * 1024)], ['content-length', String(body.length)]], body);
    expect(json(padded)).toMatchObject({ status: 200 });
  });

  test('a TRACE on a control path is a 4xx JSON error, not a 500', async () => {
    const response = await rawRequest(app.port, head('TRACE /__scenario__ HTTP/1.1', [['host', 'app.test']]));
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(JSON.parse(response.body)).toEqual({ error: expect.any(String) });
  });

  // Refused, never a 500: a browser can send a Host this cannot read (test/hardening/odd-host-names.test.ts).
  test('a Host header that makes no URL is a 403 JSON error, not a 500', async () => {
    const response = await rawRequest(app.port, head('GET /__harness__/state HTTP/1.1', [['host', 'not a host'], ['x-harness-test-id', 't']]));
    expect(json(response)).toEqual({ status: 403, contentType: expect.stringContaining('application/json'), body: { error: expect.stringMatching(/^Host not allowed: .*"not a host", which is not a host name/) } });
  });

  test('requests Node itself refuses (headers over 16 KiB, two Content-Lengths) leave the server up', async () => {
    const huge = await rawRequest(app.port, head('GET /__scenario__ HTTP/1.1', [['host', 'app.test'], ['x-padding', 'p'.repeat(20 * 1024)]]));
    expect(huge.status).toBe(431);
    const conflicting = await post([['content-length', '2'], ['content-length', '3']], '{}');
    expect(conflicting.status).toBe(400);
    const after = await rawRequest(app.port, head('GET /__harness__/state HTTP/1.1', [['host', 'app.test'], ['x-harness-test-id', 'still-up']]));
    expect(json(after)).toMatchObject({ status: 200, body: { testId: 'still-up' } });
  });
});
