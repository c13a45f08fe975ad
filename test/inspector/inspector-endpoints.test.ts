/**
 * The inspector's endpoints through harness.handle(): the page and its injected config, the
 * paged list of live test IDs, the catalogue with mocks. The adapter suite checks that every
 * framework serves them; test/browser/inspector.spec.ts drives the page in a real browser.
 */
import { createHarness, createMemoryStore, defineScenarios, type SessionStore } from 'scenario-harness';
import { expect, test } from 'vitest';

const scenarios = defineScenarios({
  default: { name: 'Default', mocks: [{ id: 'user', method: 'GET', url: /^https:\/\/users\.test\/\d+$/, response: { body: { ok: true } } }] },
  checkout: {
    name: 'Checkout',
    description: 'A card payment',
    mocks: [{ method: ['POST', 'PUT'], url: 'https://pay.test/v1/charges', match: { body: { amount: 5000 }, headers: { authorization: { startsWith: 'Bearer ' } } }, sequence: { responses: [{ status: 201 }, { status: 409 }] } }],
    variants: { slow: { mocks: [{ url: 'https://pay.test/*', response: { delay: 500, status: 200 } }] } },
  },
});

const start = async (options: { store?: SessionStore; endpoints?: Record<string, string>; enabled?: boolean } = {}) => {
  const harness = createHarness({ enabled: options.enabled ?? true, announce: false, scenarios, ...options });
  await harness.start();
  return harness;
};
const get = async (harness: { handle(request: Request): Promise<Response | null> }, path: string, init?: RequestInit) => harness.handle(new Request(`http://app.test${path}`, init));

test('the page is HTML with a policy that forbids anything from elsewhere, and the harness\'s endpoints injected safely', async () => {
  const harness = await start({ endpoints: { inspector: '/debug/', getState: '/x</script><script>alert(1)</script>' } });
  const page = (await get(harness, '/debug/'))!;
  expect(page.status).toBe(200);
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
  const html = await page.text();
  const config = /<script id="harness-config" type="application\/json">(.*?)<\/script>/.exec(html)?.[1];
  expect(JSON.parse(config!)).toEqual({
    endpoints: { ...harness.endpoints, inspector: '/debug/' },
    testIdHeader: 'x-harness-test-id',
    journal: true,
  });
  expect(config).not.toContain('</script>');
  expect((await get(harness, '/debug'))!.status).toBe(200);
  const head = (await get(harness, '/debug/', { method: 'HEAD' }))!;
  expect(head.status).toBe(200);
  expect(await get(harness, '/__harness__/')).toBeNull();
  await harness.stop();
});

test('a disabled harness serves neither the page nor the test IDs', async () => {
  const harness = await start({ enabled: false });
  expect(await get(harness, '/__harness__/')).toBeNull();
  expect(await get(harness, '/__harness__/sessions')).toBeNull();
  expect(harness.isControlPath('/__harness__/')).toBe(false);
});

test('the live test IDs come in pages, newest first, searchable; bad paging input is a 400 that says what to send', async () => {
  const harness = await start();
  for (const n of [1, 2, 3]) await harness.switchScenario(`page-${n}`, 'checkout', n === 3 ? 'slow' : undefined);
  await harness.run('page-2', () => fetch('https://users.test/7'));
  const json = async (path: string) => {
    const response = (await get(harness, path))!;
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const first = await json('/__harness__/sessions?limit=2');
  expect(first).toMatchObject({ status: 200, body: { cursor: '2', total: 3 } });
  expect((first.body.sessions as { testId: string }[]).map(({ testId }) => testId)).toEqual(['page-2', 'page-3']);
  expect((first.body.sessions as object[])[0]).toEqual({ testId: 'page-2', active: { scenarioId: 'checkout' }, calls: 1, lastCallAt: expect.any(String) });
  expect((first.body.sessions as object[])[1]).toEqual({ testId: 'page-3', active: { scenarioId: 'checkout', variant: 'slow' }, calls: 0 });
  expect((await json('/__harness__/sessions?limit=2&cursor=2')).body).toEqual({ sessions: [{ testId: 'page-1', active: { scenarioId: 'checkout' }, calls: 0 }], total: 3 });
  expect((await json('/__harness__/sessions?search=PAGE-3')).body).toMatchObject({ sessions: [{ testId: 'page-3' }], total: 1 });

  expect(await json('/__harness__/sessions?limit=0')).toEqual({ status: 400, body: { error: 'Invalid limit "0" on /__harness__/sessions: use a whole number from 1 to 500 (default 50).' } });
  expect((await json('/__harness__/sessions?limit=many')).status).toBe(400);
  expect(await json('/__harness__/sessions?cursor=abc')).toEqual({
    status: 400,
    body: { error: 'Invalid cursor "abc" on /__harness__/sessions: pass back the "cursor" of the previous page as it is, or none for the first page.' },
  });
  expect((await json(`/__harness__/sessions?search=${'x'.repeat(300)}`)).body.error).toMatch(/^Invalid search on \/__harness__\/sessions: 300 characters, the limit is 256/);
  await harness.stop();
});

test('a store that cannot list sessions gets a 404 that says why', async () => {
  const { listSessions: _omitted, ...store } = createMemoryStore();
  const harness = await start({ store });
  const response = (await get(harness, '/__harness__/sessions'))!;
  expect(response.status).toBe(404);
  expect(((await response.json()) as { error: string }).error).toMatch(/^This harness's session store cannot list test IDs \(its SessionStore has no listSessions\(\)\)/);
  await harness.stop();
});

test('?mocks=true adds every mock and variant overlay as JSON, named by the keys near misses use; without it the catalogue is unchanged', async () => {
  const harness = await start();
  const plain = (await (await get(harness, '/__harness__/scenarios'))!.json()) as unknown;
  expect(plain).toEqual({ scenarios: harness.listScenarios() });
  const detailed = (await (await get(harness, '/__harness__/scenarios?mocks=true'))!.json()) as unknown;
  expect(detailed).toEqual({
    scenarios: [
      { id: 'default', name: 'Default', variants: [], mocks: [{ key: 'default#0', id: 'user', method: 'GET', url: '/^https:\\/\\/users\\.test\\/\\d+$/', response: { body: { ok: true } } }], variantMocks: {} },
      {
        id: 'checkout',
        name: 'Checkout',
        description: 'A card payment',
        variants: ['slow'],
        mocks: [
          {
            key: 'checkout#0',
            method: ['POST', 'PUT'],
            url: 'https://pay.test/v1/charges',
            match: { body: { amount: 5000 }, headers: { authorization: { startsWith: 'Bearer ' } } },
            sequence: { responses: [{ status: 201 }, { status: 409 }] },
          },
        ],
        variantMocks: { slow: [{ key: 'checkout~slow#0', url: 'https://pay.test/*', response: { delay: 500, status: 200 } }] },
      },
    ],
  });
  await harness.stop();
});

test('endpoints.inspector and endpoints.sessions are checked like the others', () => {
  expect(() => createHarness({ enabled: true, scenarios, endpoints: { inspector: 'debug' } })).toThrow('expected "endpoints.inspector" to be a path starting with "/" (no query), instead got "debug".');
  expect(() => createHarness({ enabled: true, scenarios, endpoints: { sessions: '/__harness__/state/' } })).toThrow(
    '"endpoints.getState" and "endpoints.sessions" are both "/__harness__/state"; both answer GET, so give them different paths.',
  );
  // @ts-expect-error -- not an endpoint
  expect(() => createHarness({ enabled: true, scenarios, endpoints: { inspectr: '/i' } })).toThrow('"endpoints.inspectr" is not an endpoint (did you mean "inspector"?)');
});
