import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { createNextHarness, harnessApiHandler } from 'scenario-harness/next';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { conformanceScenarios } from '../conformance/scenarios.js';

/**
 * harnessApiHandler as a Pages Router API route calls it: (req, res) from node:http, with
 * `req.body` already parsed when Next's body parser is on, and the raw stream when it is off.
 */
const harness = createNextHarness({
  enabled: true,
  scenarios: conformanceScenarios,
  endpoints: { setScenario: '/api/scenario', getScenario: '/api/scenario', getState: '/api/harness-state' },
});
const handler = harnessApiHandler(harness);
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer(async (req: IncomingMessage & { body?: unknown }, res) => {
    // Like Next's parser when on: a JSON body parsed, another kept as text.
    if (req.url?.startsWith('/api/scenario') && req.headers['x-parser'] === 'on') {
      const raw = await text(req);
      if (raw !== '') req.body = req.headers['content-type'] === 'application/json' ? JSON.parse(raw) : raw;
    }
    await handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const call = async (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) => {
  const response = await fetch(`${origin}${path}`, init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

test.each(['on', 'off'])('switches, reads and ends a test with Next\'s body parser %s', async (parser) => {
  const testId = randomUUID();
  const headers = { 'x-harness-test-id': testId, 'x-parser': parser, 'content-type': 'application/json' };
  expect(await call('/api/scenario', { method: 'POST', headers, body: '{"scenario":"friendly"}' })).toEqual({ status: 200, body: { success: true, testId, scenarioId: 'friendly' } });
  expect((await call('/api/scenario', { headers })).body).toEqual({ testId, scenarioId: 'friendly', scenarioName: 'Friendly' });
  expect((await call('/api/harness-state', { headers })).body).toEqual({ testId, state: {} });
  expect((await call('/api/scenario', { method: 'DELETE', headers })).body).toEqual({ success: true, testId });
});

test('with the parser off, a malformed body gets SPEC\'s JSON 400', async () => {
  const response = await call('/api/scenario', { method: 'POST', headers: { 'x-parser': 'off' }, body: '{"scenario":' });
  expect(response.status).toBe(400);
  expect(response.body.error).toBe('Invalid request body');
});

test('a route at a path that is not a control endpoint answers 404 saying where to put it', async () => {
  const response = await call('/api/elsewhere');
  expect(response.status).toBe(404);
  expect(response.body.error).toContain('not a control endpoint of this harness (/api/scenario, /api/harness-state)');
});
