import Fastify, { type FastifyInstance } from 'fastify';
import fastify4 from 'fastify4';
import { AsyncResource } from 'node:async_hooks';
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
   * Fastify's own content-type parser keeps the async context through body parsing, so the
   * conformance suite passes even without the plugin's `preValidation` re-entry. It is needed
   * when something between `onRequest` and the handler continues from another async context,
   * like this app hook that resumes from a resource created at startup (a connection pool's
   * callback, say).
   * @see https://github.com/fastify/fastify-request-context/blob/main/index.js
   */
  const harness = createHarness({ enabled: true, scenarios: conformanceScenarios });
  const startupContext = new AsyncResource('connection-pool');
  let app: FastifyInstance;

  beforeAll(async () => {
    await harness.start();
    app = framework();
    await app.register(harnessPlugin, { harness });
    app.addHook('onRequest', (_request, _reply, done) => startupContext.runInAsyncScope(done));
    app.get('/whoami', async () => ({ testId: harness.currentTestId() }));
    app.post('/whoami', async (request) => ({ testId: harness.currentTestId(), body: request.body }));
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await harness.stop();
  });

  const url = (path: string) => {
    const { port } = app.server.address() as { port: number };
    return `http://127.0.0.1:${port}${path}`;
  };

  test('the test ID reaches a GET handler after a hook that resumes from another async context', async () => {
    const testId = randomUUID();
    const response = await fetch(url('/whoami'), { headers: { 'x-harness-test-id': testId } });
    expect(await response.json()).toEqual({ testId });
  });

  test('the test ID reaches a POST handler after such a hook and body parsing', async () => {
    const testId = randomUUID();
    const response = await fetch(url('/whoami'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-harness-test-id': testId },
      body: JSON.stringify({ order: 7 }),
    });
    expect(await response.json()).toEqual({ testId, body: { order: 7 } });
  });
});
