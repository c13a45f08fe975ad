import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningApp, StartFixture } from './fixture.js';
import { DEFAULT_ENDPOINTS } from 'scenario-harness';
import type { ControlRoute } from '../../src/core/control/control-routes.js';
import { CONTROL_ROUTES } from '../../src/harness-parts.js';
import { rawRequest } from './raw-request.js';
import { startUpstream, type Upstream } from './upstream.js';

const HEADER = 'x-harness-test-id';
/** The app's token; every case checks that no answer ever shows it (nor the wrong one sent). */
export const CONFORMANCE_TOKEN = 'conformance-token-5f0c2a9e71d84b36';
const WRONG_TOKEN = 'wrong-token-000000000000000000';
const REALM = 'Bearer realm="scenario-harness"';

/** A body for the endpoints whose request needs one to change something. */
const BODIES: Partial<Record<`${ControlRoute['endpoint']} ${string}`, unknown>> = {
  'setScenario POST': { scenario: 'friendly' },
  'getState POST': { state: { seeded: true } },
  'mocks POST': { mocks: [{ url: '*/upstream/greeting', response: { body: { greeting: 'mine' } } }] },
  'answer POST': { method: 'GET', url: 'https://greetings.example.test/upstream/greeting', headers: {} },
  'record POST': { mode: 'missing' },
};

/**
 * Every guarded control endpoint and method each fixture app serves, from the route table
 * itself (a new endpoint is checked here with no edit), with a request that would change or
 * show something. The inspector's page is left out: it holds no data and is served without
 * access (its data endpoints are in).
 */
const ENDPOINTS: [method: string, path: string, body?: unknown][] = CONTROL_ROUTES.filter((route) => route.endpoint !== 'inspector').flatMap((route) =>
  route.methods.map((method): [string, string, unknown?] => [method, DEFAULT_ENDPOINTS[route.endpoint], BODIES[`${route.endpoint} ${method}`]]),
);

/**
 * `createHarness({ access: { token } })` in a framework: every control endpoint wants
 * `Authorization: Bearer <token>`, and the app's own requests never do. Part of the adapter
 * suite; the suite's other cases are the same app without `access` (SPEC behaviour unchanged).
 */
export function defineAccessCases({ name, start }: { name: string; start: StartFixture }): void {
  describe(`adapter conformance: ${name}, access: { token }`, () => {
    let upstream: Upstream;
    let app: RunningApp;

    beforeAll(async () => {
      upstream = await startUpstream();
      app = await start({ enabled: true, upstream: upstream.origin, access: { token: CONFORMANCE_TOKEN } });
    });
    afterAll(async () => {
      await app?.close();
      await upstream?.close();
    });

    const control = (method: string, path: string, testId: string, authorization?: string, body?: unknown) =>
      fetch(app.url(path), {
        method,
        headers: {
          [HEADER]: testId,
          ...(authorization === undefined ? {} : { authorization }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const greeting = async (testId: string) => {
      const response = await fetch(app.url('/greeting'), { headers: { [HEADER]: testId } });
      expect(response.status).toBe(200);
      return ((await response.json()) as { greeting: string }).greeting;
    };
    /** A 401 as every refusal looks: JSON `{ error }`, the Bearer challenge, no token in it. */
    const refusal = async (response: { status: number; text: string; header(name: string): string | null }, what: string) => {
      expect(response.status, what).toBe(401);
      expect(response.header('content-type'), what).toContain('application/json');
      expect(response.header('www-authenticate'), what).toMatch(/^Bearer realm="scenario-harness"/);
      expect(response.text, what).not.toContain(CONFORMANCE_TOKEN);
      expect(response.text, what).not.toContain(WRONG_TOKEN);
      const body = JSON.parse(response.text) as Record<string, unknown>;
      expect(Object.keys(body), what).toEqual(['error']);
      return body.error as string;
    };
    const fromFetch = async (response: Response) => ({ status: response.status, text: await response.text(), header: (name: string) => response.headers.get(name) });

    test('every control endpoint answers 401 naming the Authorization header when it is missing, and changes nothing', async () => {
      const testId = randomUUID();
      for (const [method, path, body] of ENDPOINTS) {
        const response = await control(method, path, testId, undefined, body);
        expect(response.headers.get('www-authenticate')).toBe(REALM);
        const error = await refusal(await fromFetch(response), `${method} ${path}`);
        expect(error).toMatch(/^Missing Authorization header/);
        expect(error).toContain('"Authorization: Bearer <token>"');
      }
      expect(await greeting(testId)).toBe('hello from the default scenario');
    });

    test('a wrong token is refused with 401, showing neither token', async () => {
      const testId = randomUUID();
      const response = await control('POST', '/__scenario__', testId, `Bearer ${WRONG_TOKEN}`, { scenario: 'friendly' });
      expect(response.headers.get('www-authenticate')).toBe(`${REALM}, error="invalid_token"`);
      expect(await refusal(await fromFetch(response), 'wrong token')).toMatch(/^Wrong credentials/);
      // A prefix of the token, and the token with more after it, are wrong too.
      for (const near of [CONFORMANCE_TOKEN.slice(0, -1), `${CONFORMANCE_TOKEN}0`]) {
        expect((await control('GET', '/__harness__/state', testId, `Bearer ${near}`)).status).toBe(401);
      }
      expect(await greeting(testId)).toBe('hello from the default scenario');
    });

    test('the right token gets SPEC\'s answers on every control endpoint', async () => {
      const testId = randomUUID();
      const auth = `Bearer ${CONFORMANCE_TOKEN}`;
      const switched = await control('POST', '/__scenario__', testId, auth, { scenario: 'friendly' });
      expect(switched.status).toBe(200);
      expect(await switched.json()).toEqual({ success: true, testId, scenarioId: 'friendly' });
      expect(await greeting(testId)).toBe('hi, friend');
      expect(await (await control('GET', '/__scenario__', testId, auth)).json()).toEqual({ testId, scenarioId: 'friendly', scenarioName: 'Friendly' });
      expect(await (await control('GET', '/__harness__/state', testId, auth)).json()).toEqual({ testId, state: {} });
      expect((await control('GET', '/__harness__/scenarios', testId, auth)).status).toBe(200);
      const journal = (await (await control('GET', '/__harness__/journal', testId, auth)).json()) as { calls: unknown[] };
      expect(journal.calls).toHaveLength(1);
      expect(await (await control('DELETE', '/__scenario__', testId, auth)).json()).toEqual({ success: true, testId });
      expect((await control('GET', '/__scenario__', testId, auth)).status).toBe(404);
    });

    test('the scheme is case-insensitive: bearer and BEARER are accepted', async () => {
      for (const scheme of ['bearer', 'BEARER']) {
        const testId = randomUUID();
        const response = await control('POST', '/__scenario__', testId, `${scheme} ${CONFORMANCE_TOKEN}`, { scenario: 'grumpy' });
        expect(response.status, scheme).toBe(200);
        expect(await greeting(testId)).toBe('go away');
      }
    });

    test('another scheme, or Bearer without a token, is refused', async () => {
      const testId = randomUUID();
      const basic = `Basic ${Buffer.from(`user:${CONFORMANCE_TOKEN}`).toString('base64')}`;
      expect(await refusal(await fromFetch(await control('GET', '/__harness__/state', testId, basic)), 'Basic')).toMatch(/does not use the Bearer scheme/);
      expect(await refusal(await fromFetch(await control('GET', '/__harness__/state', testId, CONFORMANCE_TOKEN)), 'no scheme')).toMatch(/does not use the Bearer scheme/);
      expect(await refusal(await fromFetch(await control('GET', '/__harness__/state', testId, 'Bearer')), 'no token')).toMatch(/no token after "Bearer"/);
    });

    test('a repeated Authorization header is refused, as two lines or as a list in one', async () => {
      const testId = randomUUID();
      const url = app.url('/__scenario__');
      const json = JSON.stringify({ scenario: 'friendly' });
      const twoLines = await rawRequest(url, 'POST', [[HEADER, testId], ['content-type', 'application/json'], ['authorization', `Bearer ${WRONG_TOKEN}`], ['authorization', `Bearer ${CONFORMANCE_TOKEN}`]], json);
      await refusal({ ...twoLines, header: (name) => [twoLines.headers[name]].flat().join(', ') || null }, 'two lines');
      const list = await control('POST', '/__scenario__', testId, `Bearer ${CONFORMANCE_TOKEN}, Bearer ${CONFORMANCE_TOKEN}`, { scenario: 'friendly' });
      expect(await refusal(await fromFetch(list), 'a list')).toMatch(/^More than one credential/);
      expect(await greeting(testId)).toBe('hello from the default scenario');
    });

    test('an over-long Authorization header is refused unread', async () => {
      const response = await control('GET', '/__harness__/state', randomUUID(), `Bearer ${'a'.repeat(5000)}`);
      expect(await refusal(await fromFetch(response), 'over-long')).toMatch(/longer than 4096 characters/);
    });

    test('the app\'s own requests need no token, and an Authorization header of theirs reaches the app as it is', async () => {
      const testId = randomUUID();
      await control('POST', '/__scenario__', testId, `Bearer ${CONFORMANCE_TOKEN}`, { scenario: 'grumpy' });
      expect(await greeting(testId)).toBe('go away');
      const echo = await fetch(app.url('/app-echo?x=1'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${WRONG_TOKEN}`, [HEADER]: testId },
        body: JSON.stringify({ hello: 'app' }),
      });
      expect(echo.status).toBe(200);
      expect(await echo.json()).toEqual({ method: 'POST', query: '1', body: { hello: 'app' } });
    });
  });
}
