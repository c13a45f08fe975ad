/**
 * Issue 23, item 15: with a token, a body parser mounted before the harness must not answer a
 * control request before the token is checked. A malformed or oversized switch body from a
 * caller without the token gets 401 (it got the parser's 400/413, telling it about the endpoint);
 * with the token, SPEC's 400 and 413 as before. Express (body-parser) and Koa (@koa/bodyparser).
 */
import { bodyParser } from '@koa/bodyparser';
import express from 'express';
import Koa from 'koa';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness, type Harness } from 'scenario-harness';
import { harnessMiddleware as expressHarness } from 'scenario-harness/express';
import { harnessMiddleware as koaHarness, harnessParserErrorHandler } from 'scenario-harness/koa';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { conformanceScenarios } from '../conformance/scenarios.js';

const TOKEN = 'parser-order-token-0123456789';

const APPS: Record<string, (harness: Harness) => Server> = {
  'express, express.json() before the harness': (harness) => {
    const app = express();
    app.use(express.json({ limit: 100 }));
    app.use(expressHarness(harness));
    return createServer(app);
  },
  'koa, @koa/bodyparser before the harness': (harness) => {
    const app = new Koa();
    app.silent = true;
    app.use(bodyParser({ jsonLimit: 100, onError: harnessParserErrorHandler(harness) }));
    app.use(koaHarness(harness));
    return createServer(app.callback());
  },
};

for (const [name, serve] of Object.entries(APPS)) {
  describe(name, () => {
    const harness = createHarness({ enabled: true, announce: false, access: { token: TOKEN }, scenarios: conformanceScenarios });
    let server: Server;
    beforeAll(async () => {
      await harness.start();
      server = serve(harness).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await harness.stop();
    });

    const post = (body: string, token?: string) =>
      fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/__scenario__`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-harness-test-id': 'parser-order', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
        body,
      });
    const answer = async (response: Response) => ({ status: response.status, body: (await response.json()) as { error: string } });

    test('without the token, a malformed or oversized body gets 401, not the parser’s verdict', async () => {
      for (const body of ['{"scenario":', JSON.stringify({ scenario: 'x'.repeat(500) })]) {
        const { status, body: json } = await answer(await post(body));
        expect(status).toBe(401);
        expect(json.error).toContain('Authorization');
      }
    });

    test('with the token, SPEC’s 400 and 413', async () => {
      expect(await answer(await post('{"scenario":', TOKEN))).toMatchObject({ status: 400, body: { error: 'Invalid request body' } });
      expect(await answer(await post(JSON.stringify({ scenario: 'x'.repeat(500) }), TOKEN))).toEqual({ status: 413, body: { error: 'Request body too large' } });
    });
  });
}
