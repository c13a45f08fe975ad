/**
 * NestJS's `consumer.apply(harnessMiddleware(harness))` calls each function of the pair as a
 * plain middleware, `(req, res, next)`, the 4-argument error handler included: every request
 * must still reach the app (it was 500 "next is not a function", the harness disabled too), and
 * control requests must still be answered. Here Express calls them the way Nest does.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { afterAll, describe, expect, test } from 'vitest';

const scenarios = { default: { name: 'D', mocks: [{ url: 'https://api.nest.test/greeting', response: { body: 'hello' } }] }, other: { name: 'O', mocks: [{ url: 'https://api.nest.test/greeting', response: { body: 'other' } }] } };

describe.each([true, false])('harness enabled: %s', (enabled) => {
  const harness = createHarness({ enabled, announce: false, unhandled: 'error', scenarios });
  let server: Server;
  let origin: string;
  afterAll(async () => {
    server?.close();
    await harness.stop();
  });

  test('every function of the pair, called as (req, res, next), lets the app answer', async () => {
    await harness.start();
    const app = express();
    for (const middleware of harnessMiddleware(harness)) {
      // What Nest does with each function consumer.apply() got: a plain (req, res, next) middleware.
      app.use((req, res, next) => (middleware as (req: unknown, res: unknown, next: unknown) => void)(req, res, next));
    }
    app.get('/greeting', async (_req, res) => void res.send(enabled ? await (await fetch('https://api.nest.test/greeting')).text() : 'app'));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const first = await fetch(`${origin}/greeting`, { headers: { 'x-harness-test-id': 't1' } });
    expect([first.status, await first.text()]).toEqual([200, enabled ? 'hello' : 'app']);
    if (!enabled) return;
    const switched = await fetch(`${origin}/__scenario__`, { method: 'POST', headers: { 'x-harness-test-id': 't1', 'content-type': 'application/json' }, body: '{"scenario":"other"}' });
    expect(switched.status).toBe(200);
    expect(await (await fetch(`${origin}/greeting`, { headers: { 'x-harness-test-id': 't1' } })).text()).toBe('other');
  });
});
