import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startUpstream, type Upstream } from '../conformance/upstream.js';
import { ensureNextBuild, NEXT_TARGETS, type NextTarget } from './fixtures/next-build.js';
import { startNextApp } from './fixtures/next.js';

/**
 * Next.js beyond the conformance suite: the calls made by server components, server actions and
 * getServerSideProps run as the requesting test with no header forwarded by hand, Next's Data
 * Cache never hides a switch, and proxy.ts serves custom control paths.
 */
const HEADER = 'x-harness-test-id';

/** The suite on one Next.js major (test-runtimes.json names the previous one). */
function defineServerCallsSuite(target: NextTarget): void {
  let upstream: Upstream;
  let app: Awaited<ReturnType<typeof startNextApp>>;

  // `next build` on two cores takes a minute or more; the next*.test.ts files share one build per major.
  beforeAll(() => ensureNextBuild(target), 600_000);
  beforeAll(async () => {
    upstream = await startUpstream();
    app = await startNextApp({ HARNESS_ENABLED: 'true', UPSTREAM_ORIGIN: upstream.origin }, target);
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  async function switchTo(testId: string, scenario: string, path = '/__scenario__', on = app): Promise<Response> {
    return fetch(on.url(path), { method: 'POST', headers: { 'content-type': 'application/json', [HEADER]: testId }, body: JSON.stringify({ scenario }) });
  }

  /** `{ id: text }` for every element with an id and plain text in a rendered page. */
  async function rendered(response: Response): Promise<Record<string, string>> {
    expect(response.status).toBe(200);
    return Object.fromEntries([...(await response.text()).matchAll(/ id="([\w-]+)"[^>]*>([^<]*)</g)].map((match) => [match[1], match[2]]));
  }

  const page = (path: string, testId: string) => fetch(app.url(path), { headers: { [HEADER]: testId } });
  const json = async (path: string, testId: string) => (await (await page(path, testId)).json()) as { greeting: string };

  describe(`${target.label}: server-side calls find their test ID`, () => {
    test('a server component\'s fetch and node:http calls run as the test that requested the page', async () => {
      const testId = randomUUID();
      await switchTo(testId, 'friendly');
      expect(await rendered(await page('/app-router/server-component', testId))).toMatchObject({ greeting: 'hi, friend', 'node-http': 'hi, friend' });
      expect(await rendered(await page('/app-router/server-component', randomUUID()))).toMatchObject({ greeting: 'hello from the default scenario', 'node-http': 'hello from the default scenario' });
    });

    test('two server-component renders in flight at once never see each other\'s scenario', async () => {
      const [first, second] = [randomUUID(), randomUUID()];
      await switchTo(first, 'friendly');
      await switchTo(second, 'grumpy');
      const [gateA, gateB] = [upstream.gate(first), upstream.gate(second)];
      try {
        const renderA = page(`/app-router/server-component?gate=${first}`, first);
        await gateA.arrived;
        const renderB = page(`/app-router/server-component?gate=${second}`, second);
        await gateB.arrived;
        gateB.release();
        expect((await rendered(await renderB)).greeting).toBe('go away');
        gateA.release();
        expect((await rendered(await renderA)).greeting).toBe('hi, friend');
      } finally {
        gateA.release();
        gateB.release();
      }
    });

    test('a server action calls upstream as the test that posted the form', async () => {
      const testId = randomUUID();
      await switchTo(testId, 'grumpy');
      const form = await (await page('/app-router/server-action', testId)).text();
      const actionField = /name="(\$ACTION_ID_[0-9a-f]+)"/.exec(form)?.[1];
      expect(actionField).toBeDefined();
      const body = new FormData();
      body.append(actionField!, '');
      // A form posted without JavaScript: the action runs and answers with its redirect.
      const response = await fetch(app.url('/app-router/server-action'), { method: 'POST', body, redirect: 'manual', headers: { [HEADER]: testId, origin: app.origin } });
      expect(response.status).toBe(303);
      expect(new URL(response.headers.get('location')!, app.origin).searchParams.get('greeting')).toBe('go away');
    });

    test('getServerSideProps calls upstream as the test that requested the page', async () => {
      const testId = randomUUID();
      await switchTo(testId, 'friendly');
      expect((await rendered(await page('/pages-router/gssp', testId))).greeting).toBe('hi, friend');
      expect((await rendered(await page('/pages-router/gssp', randomUUID()))).greeting).toBe('hello from the default scenario');
    });
  });

  describe(`${target.label}: the Data Cache never hides a scenario`, () => {
    test.each([
      ['cache: \'force-cache\'', '/app-router/cached-greeting'],
      ['next: { revalidate: 3600 }', '/app-router/cached-greeting?mode=revalidate'],
    ])('a route handler fetch with %s sees a switch, and another test does not see it', async (_label, path) => {
      const testId = randomUUID();
      expect((await json(path, testId)).greeting).toBe('hello from the default scenario');
      await switchTo(testId, 'friendly');
      expect((await json(path, testId)).greeting).toBe('hi, friend');
      await switchTo(testId, 'grumpy');
      expect((await json(path, testId)).greeting).toBe('go away');
      expect((await json(path, randomUUID())).greeting).toBe('hello from the default scenario');
    });

    test('a server component fetch with cache: \'force-cache\' sees a switch', async () => {
      const testId = randomUUID();
      expect((await rendered(await page('/app-router/server-component', testId))).cached).toBe('hello from the default scenario');
      await switchTo(testId, 'grumpy');
      expect((await rendered(await page('/app-router/server-component', testId))).cached).toBe('go away');
    });
  });

  describe(`${target.label}: control endpoints in the proxy (middleware.ts on Next.js 15)`, () => {
    test('answer at custom paths, and the default paths are then not control endpoints', async () => {
      const custom = await startNextApp(
        {
          HARNESS_ENABLED: 'true',
          UPSTREAM_ORIGIN: upstream.origin,
          HARNESS_CONTROL: 'proxy',
          HARNESS_SCENARIO_PATH: '/test-control/scenario',
          HARNESS_STATE_PATH: '/test-control/state',
        },
        target,
      );
      try {
        const testId = randomUUID();
        expect((await switchTo(testId, 'friendly', '/__scenario__', custom)).status).toBe(404);
        const switched = await switchTo(testId, 'friendly', '/test-control/scenario', custom);
        expect(await switched.json()).toEqual({ success: true, testId, scenarioId: 'friendly' });
        const active = await fetch(custom.url('/test-control/scenario'), { headers: { [HEADER]: testId } });
        expect(await active.json()).toEqual({ testId, scenarioId: 'friendly', scenarioName: 'Friendly' });
        const state = await fetch(custom.url('/test-control/state'), { headers: { [HEADER]: testId } });
        expect(await state.json()).toEqual({ testId, state: {} });
        const greeting = await fetch(custom.url('/api/pages-router/greeting'), { headers: { [HEADER]: testId } });
        expect(await greeting.json()).toEqual({ greeting: 'hi, friend' });
      } finally {
        await custom.close();
      }
    });
  });
}

for (const target of NEXT_TARGETS) describe(target.label, () => defineServerCallsSuite(target));
