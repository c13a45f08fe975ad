import Fastify, { type FastifyInstance } from 'fastify';
import fastify4 from 'fastify4';
import { randomUUID } from 'node:crypto';
import { createHarness } from 'scenario-harness';
import { harnessPlugin } from 'scenario-harness/fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { conformanceScenarios } from '../conformance/scenarios.js';

// Fastify 5 and Fastify 4 (the `fastify4` alias; its types differ in details this file does not use).
describe.each([
  ['fastify 5', Fastify],
  ['fastify 4', fastify4 as unknown as typeof Fastify],
])('%s', (_major, framework) => {
  /**
   * The app's own content-type parsers beside the plugin: it replaces Fastify's JSON parser with
   * one that wraps what it parses and adds one for a vendor type. Control requests never reach
   * those parsers; the app's routes get what its parsers made, inside their test.
   */
  const harness = createHarness({ enabled: true, scenarios: conformanceScenarios });
  let app: FastifyInstance;

  beforeAll(async () => {
    app = framework();
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, { wrapped: JSON.parse(String(body)) }));
    app.addContentTypeParser('application/vnd.order', { parseAs: 'string' }, (_request, body, done) => done(null, { order: String(body) }));
    await app.register(harnessPlugin, { harness });
    app.post('/echo', async (request) => ({ testId: harness.currentTestId(), body: request.body }));
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
  });

  const url = (path: string) => `http://127.0.0.1:${(app.server.address() as { port: number }).port}${path}`;
  const post = (path: string, testId: string, body: string, contentType?: string) =>
    fetch(url(path), { method: 'POST', headers: { 'x-harness-test-id': testId, ...(contentType ? { 'content-type': contentType } : {}) }, body });

  test('a switch request is answered from its own body, not from the app\'s JSON parser', async () => {
    const testId = randomUUID();
    const response = await post('/__scenario__', testId, JSON.stringify({ scenario: 'friendly' }), 'application/json');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, testId, scenarioId: 'friendly' });
    expect(await harness.getActiveScenario(testId)).toEqual({ scenarioId: 'friendly' });
  });

  test('a malformed switch body gets SPEC\'s 400, not Fastify\'s parser error', async () => {
    const response = await post('/__scenario__', randomUUID(), '{"scenario": 42', 'application/json');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; details: Array<{ code: string }> };
    expect(body).toMatchObject({ error: 'Invalid request body', details: [{ code: 'invalid_json' }] });
  });

  test('a switch request with a content type no parser knows is still answered', async () => {
    const testId = randomUUID();
    const response = await post('/__scenario__', testId, JSON.stringify({ scenario: 'grumpy' }), 'application/x-anything');
    expect(response.status).toBe(200);
    expect(await harness.getActiveScenario(testId)).toEqual({ scenarioId: 'grumpy' });
  });

  test('the app\'s routes get what the app\'s own parsers made, inside their test', async () => {
    const testId = randomUUID();
    const json = await post('/echo', testId, JSON.stringify({ hello: 'app' }), 'application/json');
    expect(await json.json()).toEqual({ testId, body: { wrapped: { hello: 'app' } } });
    const vendor = await post('/echo', testId, 'seven', 'application/vnd.order');
    expect(await vendor.json()).toEqual({ testId, body: { order: 'seven' } });
  });
});
