import { Hono } from 'hono';
import { randomUUID } from 'node:crypto';
import { createHarness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/hono';
import { expect, test } from 'vitest';
import { conformanceScenarios } from '../conformance/scenarios.js';

/**
 * Hono reads bodies lazily from `c.req.raw`, a stream that can be read once. The middleware
 * reads only control bodies, and takes one from Hono's body cache when an earlier middleware
 * has read it already. These tests call `app.request()`: no server is needed.
 */
const harness = createHarness({ enabled: true, scenarios: conformanceScenarios });

/** An app whose first middleware reads every JSON body, as a logging or auth middleware might. */
function appReadingBodiesFirst(): Hono {
  const app = new Hono();
  app.use(async (c, next) => {
    if (c.req.method === 'POST') await c.req.json().catch(() => undefined);
    await next();
  });
  app.use(harnessMiddleware(harness));
  return app;
}

const post = (app: Hono, path: string, testId: string, body: string) =>
  app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-harness-test-id': testId }, body });

test('a switch body an earlier middleware already read still selects the scenario', async () => {
  const testId = randomUUID();
  const response = await post(appReadingBodiesFirst(), '/__scenario__', testId, JSON.stringify({ scenario: 'friendly' }));
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ success: true, testId, scenarioId: 'friendly' });
});

test('a malformed switch body an earlier middleware failed to parse gets SPEC\'s 400', async () => {
  const response = await post(appReadingBodiesFirst(), '/__scenario__', randomUUID(), '{"scenario": 42');
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ error: 'Invalid request body', details: [{ code: 'invalid_json' }] });
});

test('the body of any other request reaches the app unread', async () => {
  const app = new Hono();
  app.use(harnessMiddleware(harness));
  app.post('/echo', async (c) => c.json({ unread: !c.req.raw.bodyUsed, testId: harness.currentTestId(), body: await c.req.json() }));
  const testId = randomUUID();
  const response = await post(app, '/echo', testId, JSON.stringify({ hello: 'app' }));
  expect(await response.json()).toEqual({ unread: true, testId, body: { hello: 'app' } });
});
