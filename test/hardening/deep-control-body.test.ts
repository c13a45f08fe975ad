/**
 * Issue 23, item 14, the control side: a JSON body nested 5,000 deep POSTed to a control
 * endpoint. Seeded as state it answered 500, and so did every later `GET /__harness__/state` of
 * its test (serialising it overflowed the stack); as mocks it answered 500. Now every control
 * endpoint that reads JSON refuses a body deeper than 256 levels with a 400 naming the limit,
 * stores nothing, and the test's state is still served. Over real HTTP, through the Express
 * adapter (with a body parser before it, which hands the harness an already parsed object) and
 * node:http (the harness reads the body itself).
 */
import { createHarness, defineScenarios } from 'scenario-harness';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApp, type App, type AppKind } from './apps.js';

/**
 * 5,000 arrays deep, as text: 10 KB, far under the 64 KiB body limit, so only the depth can refuse
 * it. Text, because `JSON.stringify` of it overflows the stack here too.
 */
const DEEP = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
/** Exactly at the limit once inside `{ state: { keep } }` (2 levels): still accepted. */
const AT_LIMIT = `${'['.repeat(254)}${']'.repeat(254)}`;

const scenarios = defineScenarios({ default: { name: 'Default', mocks: [{ url: 'https://api.deep.test/x', response: { body: 'ok' } }] } });
const KINDS: AppKind[] = ['express, parser before', 'node:http'];

for (const kind of KINDS) {
  describe(kind, () => {
    const harness = createHarness({ enabled: true, announce: false, scenarios });
    let app: App;
    beforeAll(async () => {
      await harness.start();
      app = await startApp(kind, harness);
    });
    afterAll(() => app?.close());

    /** GET `path`, or POST the JSON text `body`. */
    const call = (path: string, testId: string, body?: string) =>
      fetch(`http://127.0.0.1:${app.port}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', 'x-harness-test-id': testId },
        ...(body === undefined ? {} : { body }),
      });
    const answer = async (response: Response) => ({ status: response.status, body: (await response.json()) as { error: string; details?: { message: string }[] } });
    const expectDepthRefusal = (got: Awaited<ReturnType<typeof answer>>) => {
      expect(got.status).toBe(400);
      expect(got.body.error).toBe('Invalid request body');
      expect(got.body.details?.[0]?.message).toMatch(/nests deeper than 256 levels.*Send a flatter body/);
    };

    test('a state seed 5,000 deep gets 400 naming the limit, and the test’s state is still served, unchanged', async () => {
      const testId = `deep-state-${kind}`;
      expect((await call('/__harness__/state', testId, '{"state":{"keep":1}}')).status).toBe(200);
      expectDepthRefusal(await answer(await call('/__harness__/state', testId, `{"state":{"deep":${DEEP}}}`)));
      const state = await answer(await call('/__harness__/state', testId));
      expect(state).toEqual({ status: 200, body: { testId, state: { keep: 1 } } });
    });

    test('a state seed exactly 256 deep is still accepted', async () => {
      const testId = `at-limit-${kind}`;
      expect(await answer(await call('/__harness__/state', testId, `{"state":{"keep":${AT_LIMIT}}}`))).toMatchObject({ status: 200 });
    });

    test('mocks, a scenario switch and a browser call 5,000 deep get 400, and no mock is stored', async () => {
      const testId = `deep-mocks-${kind}`;
      expectDepthRefusal(await answer(await call('/__harness__/mocks', testId, `{"mocks":[{"url":"https://api.deep.test/y","response":{"body":${DEEP}}}]}`)));
      expect(await answer(await call('/__harness__/mocks', testId))).toEqual({ status: 200, body: { testId, mocks: [] } });
      expectDepthRefusal(await answer(await call('/__scenario__', testId, `{"scenario":"default","variant":${DEEP}}`)));
      expectDepthRefusal(await answer(await call('/__harness__/answer', testId, `{"method":"POST","url":"https://api.deep.test/x","body":${DEEP}}`)));
      expect((await call('/__harness__/state', testId)).status).toBe(200);
    });
  });
}
