import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { defineAccessCases } from './access-cases.js';
import { defineCrossSiteCases } from './cross-site-cases.js';
import type { RunningApp, StartFixture } from './fixture.js';
import { REAL_GREETING, startUpstream, type Upstream } from './upstream.js';

export interface AdapterSuiteOptions {
  /** Shown in test names: `express`, `next (App Router)`. */
  name: string;
  start: StartFixture;
}

const HEADER = 'x-harness-test-id';

/**
 * The behaviour every framework adapter must have (SPEC §4: "the same in every hosting
 * framework"). The suite sees only HTTP, so in-process and child-process apps are tested alike.
 */
export function defineAdapterSuite({ name, start }: AdapterSuiteOptions): void {
  describe(`adapter conformance: ${name}`, () => {
    let upstream: Upstream;
    let app: RunningApp;

    beforeAll(async () => {
      upstream = await startUpstream();
      app = await start({ enabled: true, upstream: upstream.origin });
    });
    afterAll(async () => {
      await app?.close();
      await upstream?.close();
    });

    const switchTo = async (testId: string, scenario: string) =>
      fetch(app.url('/__scenario__'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [HEADER]: testId },
        body: JSON.stringify({ scenario }),
      });
    const greeting = async (testId?: string, path = '/greeting') => {
      const response = await fetch(app.url(path), { headers: testId ? { [HEADER]: testId } : {} });
      expect(response.status).toBe(200);
      return ((await response.json()) as { greeting: string }).greeting;
    };

    test('selecting a scenario through the control endpoint changes what upstream returns', async () => {
      const testId = randomUUID();
      expect(await greeting(testId)).toBe('hello from the default scenario');
      const switched = await switchTo(testId, 'friendly');
      expect(switched.status).toBe(200);
      expect(await switched.json()).toEqual({ success: true, testId, scenarioId: 'friendly' });
      expect(await greeting(testId)).toBe('hi, friend');
      const active = await fetch(app.url('/__scenario__'), { headers: { [HEADER]: testId } });
      expect(await active.json()).toEqual({ testId, scenarioId: 'friendly', scenarioName: 'Friendly' });
    });

    test('requests without a test ID get the default behaviour', async () => {
      expect(await greeting()).toBe('hello from the default scenario');
      expect(await greeting('')).toBe('hello from the default scenario');
    });

    test('every SPEC body carries exactly SPEC\'s keys; the help goes in x-harness-hint', async () => {
      const testId = randomUUID();
      const send = async (method: string, path: string, body?: string) => {
        const response = await fetch(app.url(path), { method, headers: { 'content-type': 'application/json', [HEADER]: testId }, ...(body === undefined ? {} : { body }) });
        return { status: response.status, type: response.headers.get('content-type'), hint: response.headers.get('x-harness-hint'), body: (await response.json()) as Record<string, unknown> };
      };
      // §4.2: no active scenario.
      expect(await send('GET', '/__scenario__')).toEqual({ status: 404, type: expect.stringContaining('application/json'), hint: null, body: { error: 'No active scenario for this test ID', testId } });
      // §4.1: an unknown scenario; the near ID and the registered ones in the header.
      expect(await send('POST', '/__scenario__', '{"scenario":"Friendly"}')).toEqual({
        status: 400,
        type: expect.stringContaining('application/json'),
        hint: 'Did you mean "friendly"? Registered scenarios: "default", "friendly", "grumpy".',
        body: { error: "Scenario 'Friendly' not found. Did you forget to register it?" },
      });
      expect((await send('POST', '/__scenario__', '{"scenario":"no-such-scenario"}')).hint).toBe('Registered scenarios: "default", "friendly", "grumpy".');
      expect(await greeting(testId)).toBe('hello from the default scenario');
      // §4.1: an invalid body; every issue has exactly code, expected, received, path, message.
      const invalid = await send('POST', '/__scenario__', '{"scenario":""}');
      expect(invalid).toMatchObject({ status: 400, hint: null });
      expect(Object.keys(invalid.body).sort()).toEqual(['details', 'error']);
      expect(invalid.body.error).toBe('Invalid request body');
      expect((invalid.body.details as object[]).map((issue) => Object.keys(issue).sort())).toEqual([['code', 'expected', 'message', 'path', 'received']]);
      // §4.1: a switch; a variant the scenario does not declare is echoed, and the warning goes in the header.
      expect(await send('POST', '/__scenario__', '{"scenario":"friendly"}')).toEqual({ status: 200, type: expect.stringContaining('application/json'), hint: null, body: { success: true, testId, scenarioId: 'friendly' } });
      expect(await send('POST', '/__scenario__', '{"scenario":"friendly","variant":"loud"}')).toEqual({
        status: 200,
        type: expect.stringContaining('application/json'),
        hint: 'Scenario "friendly" declares no variant "loud", so it adds no mocks. Declared variants: (none).',
        body: { success: true, testId, scenarioId: 'friendly', variant: 'loud' },
      });
      // §4.2 and §4.3.
      await send('POST', '/__scenario__', '{"scenario":"friendly"}');
      expect(await send('GET', '/__scenario__')).toEqual({ status: 200, type: expect.stringContaining('application/json'), hint: null, body: { testId, scenarioId: 'friendly', scenarioName: 'Friendly' } });
      expect(await send('GET', '/__harness__/state')).toEqual({ status: 200, type: expect.stringContaining('application/json'), hint: null, body: { testId, state: {} } });
    });

    test('the journal lists the calls the app made for this test only; DELETE clears it', async () => {
      const [mine, theirs] = [randomUUID(), randomUUID()];
      await switchTo(mine, 'friendly');
      await greeting(mine);
      await greeting(theirs);
      const journal = async (testId: string, query = '') => {
        const response = await fetch(app.url(`/__harness__/journal${query}`), { headers: { [HEADER]: testId } });
        expect(response.status).toBe(200);
        return (await response.json()) as { testId: string; calls: { method: string; url: string; answered: boolean; scenarioId?: string }[] };
      };
      const { testId, calls } = await journal(mine);
      expect(testId).toBe(mine);
      expect(calls.map(({ method, url, answered, scenarioId }) => ({ method, path: new URL(url).pathname, answered, scenarioId }))).toEqual([
        { method: 'GET', path: '/upstream/greeting', answered: true, scenarioId: 'friendly' },
      ]);
      expect((await journal(mine, '?method=POST')).calls).toEqual([]);
      const cleared = await fetch(app.url('/__harness__/journal'), { method: 'DELETE', headers: { [HEADER]: mine } });
      expect(await cleared.json()).toEqual({ success: true, testId: mine });
      expect((await journal(mine)).calls).toEqual([]);
      expect((await journal(theirs)).calls).toHaveLength(1);
    });

    test('the inspector page is served (with and without its trailing slash), and its data: live test IDs and the scenarios with their mocks', async () => {
      for (const path of ['/__harness__/', '/__harness__']) {
        const page = await fetch(app.url(path));
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'sha256-/);
        const html = await page.text();
        expect(html).toContain('<title>scenario-harness inspector</title>');
        expect(html).toContain('"sessions":"/__harness__/sessions"');
      }
      const testId = `inspect-${randomUUID()}`;
      await switchTo(testId, 'grumpy');
      await greeting(testId);
      const sessions = await fetch(app.url(`/__harness__/sessions?search=${testId}`));
      expect(sessions.status).toBe(200);
      expect((await sessions.json()) as unknown).toMatchObject({ sessions: [{ testId, active: { scenarioId: 'grumpy' }, calls: 1 }] });
      const catalogue = (await (await fetch(app.url('/__harness__/scenarios?mocks=true'))).json()) as { scenarios: { id: string; mocks: unknown[] }[] };
      expect(catalogue.scenarios.find(({ id }) => id === 'grumpy')?.mocks).toEqual([
        { key: 'grumpy#0', method: 'GET', url: '*/upstream/greeting', response: { body: { greeting: 'go away' } } },
      ]);
      const post = await fetch(app.url('/__harness__/'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET');
    });

    test('the scenario catalogue lists the registered scenarios; other methods are 405', async () => {
      const response = await fetch(app.url('/__harness__/scenarios'));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toEqual({
        scenarios: [
          { id: 'default', name: 'Default greeting', variants: [] },
          { id: 'friendly', name: 'Friendly', variants: [] },
          { id: 'grumpy', name: 'Grumpy', variants: [] },
        ],
      });
      const post = await fetch(app.url('/__harness__/scenarios'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET');
      expect(await post.json()).toEqual({ error: 'Method POST is not allowed on /__harness__/scenarios. Use GET.' });
    });

    test('an invalid switch body returns SPEC\'s 400 with details', async () => {
      const response = await fetch(app.url('/__scenario__'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [HEADER]: randomUUID() },
        body: '{"scenario": 42',
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string; details: unknown[] };
      expect(body.error).toBe('Invalid request body');
      expect(body.details).toHaveLength(1);
    });

    test('two test IDs in flight at once never see each other\'s scenario', async () => {
      const [first, second] = [randomUUID(), randomUUID()];
      await switchTo(first, 'friendly');
      await switchTo(second, 'grumpy');
      const gateA = upstream.gate(first);
      const gateB = upstream.gate(second);
      try {
        // A enters first and leaves last; B enters while A is held and leaves first.
        const requestA = greeting(first, `/gated-greeting/${first}`);
        await gateA.arrived;
        const requestB = greeting(second, `/gated-greeting/${second}`);
        await gateB.arrived;
        gateB.release();
        expect(await requestB).toBe('go away');
        gateA.release();
        expect(await requestA).toBe('hi, friend');
      } finally {
        gateA.release();
        gateB.release();
      }
    });

    test('the test ID survives body parsing', async () => {
      const testId = randomUUID();
      await switchTo(testId, 'grumpy');
      const response = await fetch(app.url('/body-then-greeting'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [HEADER]: testId },
        body: JSON.stringify({ order: 7 }),
      });
      expect(await response.json()).toEqual({ received: { order: 7 }, greeting: 'go away' });
    });

    test('multi-value response headers reach the client intact', async () => {
      const response = await fetch(app.url('/cookies'), { headers: { [HEADER]: randomUUID() } });
      expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    });

    test('non-control paths fall through to the app untouched', async () => {
      const response = await fetch(app.url('/app-echo?x=1'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [HEADER]: randomUUID() },
        body: JSON.stringify({ hello: 'app' }),
      });
      expect(await response.json()).toEqual({ method: 'POST', query: '1', body: { hello: 'app' } });
    });

    test('state and ending a test work through the adapter', async () => {
      const testId = randomUUID();
      await switchTo(testId, 'friendly');
      const state = await fetch(app.url('/__harness__/state'), { headers: { [HEADER]: testId } });
      expect(await state.json()).toEqual({ testId, state: {} });
      const ended = await fetch(app.url('/__scenario__'), { method: 'DELETE', headers: { [HEADER]: testId } });
      expect(await ended.json()).toEqual({ success: true, testId });
      const active = await fetch(app.url('/__scenario__'), { headers: { [HEADER]: testId } });
      expect(active.status).toBe(404);
    });

    test("a test's own mocks and seeded state work through the adapter: added, answered first, listed, refused when invalid, removed", async () => {
      const testId = randomUUID();
      const send = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(app.url(path), { method, headers: { 'content-type': 'application/json', [HEADER]: testId }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      await switchTo(testId, 'friendly');
      const mock = { method: 'GET', url: '*/upstream/greeting', response: { body: { greeting: 'hello {{state.user.name}}, just you' } } };
      expect(await send('POST', '/__harness__/mocks', { mocks: [mock] })).toEqual({ status: 200, body: { testId, mocks: 1 } });
      expect(await send('POST', '/__harness__/state', { state: { 'user.name': 'Ada' } })).toEqual({ status: 200, body: { testId, state: { 'user.name': 'Ada' } } });
      expect(await greeting(testId)).toBe('hello Ada, just you');
      expect(await greeting(randomUUID())).toBe('hello from the default scenario');
      expect(await send('GET', '/__harness__/mocks')).toEqual({ status: 200, body: { testId, mocks: [mock] } });
      const invalid = await send('POST', '/__harness__/mocks', { mocks: [{ url: '*/elsewhere', response: { status: 99 } }] });
      expect(invalid).toMatchObject({ status: 400, body: { details: [{ field: 'mocks[0].response.status' }] } });
      expect(await send('DELETE', '/__harness__/mocks')).toEqual({ status: 200, body: { testId, mocks: 0 } });
      expect(await greeting(testId)).toBe('hi, friend');
    });

    test("the browser's own calls are answered through the adapter from the test's scenario, with CORS; an unmocked one is to be aborted; the journal marks them", async () => {
      const testId = randomUUID();
      const page = 'http://shop.example.test';
      const url = 'https://greetings.example.test/upstream/greeting';
      const answer = async (call: unknown) => {
        const response = await fetch(app.url('/__harness__/answer'), { method: 'POST', headers: { 'content-type': 'application/json', [HEADER]: testId }, body: JSON.stringify(call) });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      await switchTo(testId, 'friendly');
      const answered = await answer({ method: 'GET', url, headers: { origin: page, accept: 'application/json' } });
      expect(answered).toMatchObject({
        status: 200,
        body: { answered: true, status: 200, headers: { 'content-type': 'application/json', 'access-control-allow-origin': page, 'access-control-allow-credentials': 'true' } },
      });
      expect(JSON.parse(Buffer.from(answered.body.bodyBase64 as string, 'base64').toString('utf8'))).toEqual({ greeting: 'hi, friend' });
      const preflight = await answer({ method: 'OPTIONS', url, headers: { origin: page, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-client, content-type' } });
      expect(preflight).toEqual({
        status: 200,
        body: {
          answered: true,
          status: 204,
          headers: expect.objectContaining({ 'access-control-allow-origin': page, 'access-control-allow-credentials': 'true', 'access-control-allow-methods': 'GET', 'access-control-allow-headers': 'x-client, content-type' }),
          bodyBase64: '',
        },
      });
      // The fixture app's harness has unhandled: 'error': the browser must abort the call.
      const unmocked = await answer({ method: 'GET', url: 'https://elsewhere.example.test/x', headers: {} });
      expect(unmocked).toEqual({ status: 200, body: { answered: false, action: 'abort', error: expect.stringContaining('No mock answers GET https://elsewhere.example.test/x') } });
      const invalid = await answer({ method: 'GET', url: '/upstream/greeting', headers: {} });
      expect(invalid.status).toBe(400);
      expect(invalid.body.error).toMatch(/^Invalid request body: "url" must be the absolute URL the browser called/);
      const journal = (await (await fetch(app.url('/__harness__/journal'), { headers: { [HEADER]: testId } })).json()) as { calls: Record<string, unknown>[] };
      expect(journal.calls).toMatchObject([
        { method: 'GET', url, side: 'browser', answered: true, scenarioId: 'friendly', layer: 'scenario', status: 200 },
        { method: 'GET', url: 'https://elsewhere.example.test/x', side: 'browser', answered: false, unhandled: 'failed' },
      ]);
      expect(journal.calls).toHaveLength(2);
    });
  });

  describe(`adapter conformance: ${name}, enabled: false`, () => {
    let upstream: Upstream;
    let app: RunningApp;

    beforeAll(async () => {
      upstream = await startUpstream();
      app = await start({ enabled: false, upstream: upstream.origin });
    });
    afterAll(async () => {
      await app?.close();
      await upstream?.close();
    });

    test('control paths reach the app, which has no such route', async () => {
      const testId = randomUUID();
      const post = await fetch(app.url('/__scenario__'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [HEADER]: testId },
        body: JSON.stringify({ scenario: 'friendly' }),
      });
      expect(post.status).toBe(404);
      expect((await fetch(app.url('/__scenario__'), { headers: { [HEADER]: testId } })).status).toBe(404);
      expect((await fetch(app.url('/__harness__/state'), { headers: { [HEADER]: testId } })).status).toBe(404);
      expect((await fetch(app.url('/__harness__/'))).status).toBe(404);
      expect((await fetch(app.url('/__harness__/sessions'))).status).toBe(404);
      expect((await fetch(app.url('/__harness__/mocks'), { headers: { [HEADER]: testId } })).status).toBe(404);
      expect((await fetch(app.url('/__harness__/answer'), { method: 'POST', headers: { 'content-type': 'application/json', [HEADER]: testId }, body: '{}' })).status).toBe(404);
    });

    test('outgoing calls pass through to the real upstream', async () => {
      const response = await fetch(app.url('/greeting'), { headers: { [HEADER]: randomUUID() } });
      expect(await response.json()).toEqual({ greeting: REAL_GREETING });
    });
  });

  defineAccessCases({ name, start });
  defineCrossSiteCases({ name, start });
}
