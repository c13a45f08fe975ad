import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import koa2 from 'koa2';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness } from 'scenario-harness';
import { harnessMiddleware, harnessParserErrorHandler } from 'scenario-harness/koa';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { conformanceScenarios } from '../conformance/scenarios.js';

// Koa 3 and Koa 2 (the `koa2` alias).
describe.each([
  ['koa 3', Koa],
  ['koa 2', koa2],
])('%s', (_major, framework) => {
  /**
   * @koa/bodyparser mounted before the middleware: for a content type it does not parse it sets
   * `ctx.request.body = {}` and leaves the stream unread, and it throws parse errors back up the
   * chain, past any middleware mounted after it, unless given `onError`.
   */
  const harness = createHarness({ enabled: true, scenarios: conformanceScenarios });
  let server: Server;

  beforeAll(async () => {
    const app = new framework();
    app.silent = true; // the malformed app request below would log its SyntaxError
    app.use(bodyParser({ jsonLimit: 100, onError: harnessParserErrorHandler(harness) }));
    app.use(harnessMiddleware(harness));
    app.use((ctx) => void (ctx.body = { testId: harness.currentTestId(), body: ctx.request.body }));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (path: string, testId: string, body: string, contentType = 'application/json') =>
    fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, {
      method: 'POST',
      headers: { 'content-type': contentType, 'x-harness-test-id': testId },
      body,
    });

  test('a switch body the parser skipped (text/plain) is read from the stream', async () => {
    const testId = randomUUID();
    const response = await post('/__scenario__', testId, JSON.stringify({ scenario: 'friendly' }), 'text/plain;charset=UTF-8');
    expect(await response.json()).toEqual({ success: true, testId, scenarioId: 'friendly' });
  });

  test('a switch body over the parser\'s limit gets a JSON 413', async () => {
    const response = await post('/__scenario__', randomUUID(), JSON.stringify({ scenario: 'friendly', padding: 'x'.repeat(200) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'Request body too large' });
  });

  test('the app\'s own routes keep the parser\'s errors and its parsed bodies', async () => {
    const testId = randomUUID();
    const malformed = await post('/orders', testId, '{"order": 7');
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('content-type')).not.toContain('application/json');
    const parsed = await post('/orders', testId, JSON.stringify({ order: 7 }));
    expect(await parsed.json()).toEqual({ testId, body: { order: 7 } });
  });
});
