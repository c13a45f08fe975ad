/**
 * Issue 23, item 15, Koa as docs/koa.md wires it: `harnessMiddleware` first, `@koa/bodyparser`
 * after it, no `onError` hook. The middleware answers a control request itself, access check
 * first, and never calls `next()` for it, so the parser cannot answer 400/413 before the token is
 * checked. (A parser mounted *before* the harness runs first whatever the adapter does; that
 * wiring needs `harnessParserErrorHandler`, tested in parser-errors-after-access.test.ts.)
 */
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/koa';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { conformanceScenarios } from '../conformance/scenarios.js';

const TOKEN = 'koa-default-wiring-token-0123456789';
/** Over the parser's 100-byte limit, under the harness's 64 KiB. */
const OVER_PARSER_LIMIT = JSON.stringify({ scenario: 'x'.repeat(500) });
/** Over the harness's own 64 KiB limit too. */
const OVER_HARNESS_LIMIT = JSON.stringify({ scenario: 'x'.repeat(70 * 1024) });

const harness = createHarness({ enabled: true, announce: false, access: { token: TOKEN }, scenarios: conformanceScenarios });
let server: Server;
let origin: string;

beforeAll(async () => {
  await harness.start();
  const app = new Koa();
  app.silent = true;
  app.use(harnessMiddleware(harness)); // first, as the guide says
  app.use(bodyParser({ jsonLimit: 100 }));
  app.use((ctx) => {
    ctx.body = { parsed: (ctx.request as { body?: unknown }).body };
  });
  server = createServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await harness.stop();
});

const post = async (path: string, body: string, token?: string) => {
  const response = await fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-harness-test-id': 'koa-default-wiring', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body,
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as { error?: string } | undefined };
};

test('without the token, a malformed or oversized control body gets 401, never the parser’s 400/413', async () => {
  for (const body of ['{"scenario":', OVER_PARSER_LIMIT, OVER_HARNESS_LIMIT]) {
    const answer = await post('/__scenario__', body);
    expect(answer.status).toBe(401);
    expect(answer.body?.error).toContain('Authorization');
  }
});

test('with the token, the harness’s own 400 and 413, in SPEC’s shapes', async () => {
  expect(await post('/__scenario__', '{"scenario":', TOKEN)).toMatchObject({ status: 400, body: { error: 'Invalid request body' } });
  expect(await post('/__scenario__', OVER_HARNESS_LIMIT, TOKEN)).toEqual({ status: 413, body: { error: 'Request body too large' } });
});

test('the app’s own routes still get the parser, and its verdict', async () => {
  expect(await post('/orders', '{"id":7}')).toEqual({ status: 200, body: { parsed: { id: 7 } } });
  expect((await post('/orders', '{"id":')).status).toBe(400);
});
