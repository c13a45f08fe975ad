import { FLAGS_API, MAPS_API, USERS_API, WEATHER_API } from '../../examples/shop/scenarios.js';
import { test, expect } from './fixtures.js';

// The browser's own calls (issue 26): the /stores page calls maps, flags and users APIs from
// chromium, routed by harnessBrowser through the shop's /__harness__/answer, so one test's
// scenario, own mocks, state and sequences answer both the page and the shop's server. Four
// workers run these beside the rest of the suite; each test has its own scenario.
// @note Playwright answers Chromium's CORS preflights itself once a route is set, so the flags
// POST (JSON, custom header) shows that the actual answer carries the CORS headers a page needs;
// the preflight's own answer is checked over HTTP in the adapter conformance suite.

test.use({ harnessBrowser: true });

test("the page's calls to two third-party origins are answered from the test's scenario, CORS included; the journal marks them", async ({ page, harness }) => {
  await harness.switchScenario('orderPolling');
  await page.goto('/stores');
  await page.getByTestId('locate').click();
  await expect(page.getByTestId('locate-result')).toHaveText('Paris 48.86,2.35');
  await page.getByTestId('flags').click();
  // The mock's own header is readable by the page: the answer exposes it (access-control-expose-headers).
  await expect(page.getByTestId('flags-result')).toHaveText('{"newCheckout":true} v7');
  const [geocode, flags] = await harness.calls({ url: '*.example.test/v1/*' });
  expect(geocode).toMatchObject({ method: 'GET', url: `${MAPS_API}/v1/geocode?q=Paris`, side: 'browser', answered: true, scenarioId: 'default', layer: 'default' });
  expect(flags).toMatchObject({ method: 'POST', side: 'browser', answered: true, requestBody: { user: 'ada', flags: ['newCheckout'] }, requestHeaders: { 'x-client': 'shop' } });
});

test('a state a browser call writes is seen by the next server call, and the other way round', async ({ page, harness }) => {
  await harness.switchScenario('premium');
  await harness.use(
    { method: 'GET', url: `${MAPS_API}/v1/geocode`, response: { body: { city: '{{query.q}}', lat: 1, lng: 2 } }, afterResponse: { setState: { city: '{{query.q}}' } } },
    { method: 'GET', url: `${USERS_API}/me`, response: { body: { name: 'Grace near {{state.city}}', tier: 'premium' } }, afterResponse: { setState: { tier: 'gold' } } },
    { method: 'POST', url: `${FLAGS_API}/v1/evaluate`, response: { body: { tier: '{{state.tier}}' } } },
  );
  await page.goto('/stores');
  await page.getByTestId('locate').click();
  await expect(page.getByTestId('locate-result')).toHaveText('Paris 1,2');
  await page.getByTestId('me-server').click();
  await expect(page.getByTestId('me-server-result')).toHaveText('Grace near Paris (premium)');
  await page.getByTestId('flags').click();
  await expect(page.getByTestId('flags-result')).toHaveText('{"tier":"gold"} vnull');
  expect(await harness.getState()).toEqual({ city: 'Paris', tier: 'gold' });
});

test("one sequence steps through the server's and the browser's calls in the order they come", async ({ page, harness }) => {
  await harness.switchScenario('premium', { variant: 'gold' });
  await harness.use({
    method: 'GET',
    url: `${USERS_API}/me`,
    sequence: { responses: [{ body: { name: 'first', tier: 'a' } }, { body: { name: 'second', tier: 'b' } }, { body: { name: 'third', tier: 'c' } }] },
  });
  await page.goto('/stores');
  await page.getByTestId('me-server').click();
  await expect(page.getByTestId('me-server-result')).toHaveText('first (a)');
  await page.getByTestId('me-browser').click();
  await expect(page.getByTestId('me-browser-result')).toHaveText('second (b)');
  await page.getByTestId('me-server').click();
  await expect(page.getByTestId('me-server-result')).toHaveText('third (c)');
  const calls = await harness.calls({ url: `${USERS_API}/me` });
  expect(calls.map(({ side, step }) => [side ?? 'server', step])).toEqual([['server', 0], ['browser', 1], ['server', 2]]);
});

test("under unhandled: 'error' an unmocked browser call is stopped before the network; a mock's network fault fails the call as a refused connection", async ({ page, harness }) => {
  await harness.switchScenario('usersDown');
  await harness.use({ method: 'GET', url: `${MAPS_API}/v1/geocode`, response: { error: 'network' } });
  const failures = new Map<string, string | undefined>();
  page.on('requestfailed', (request) => failures.set(new URL(request.url()).origin, request.failure()?.errorText));
  await page.goto('/stores');
  await page.getByTestId('weather').click();
  await expect(page.getByTestId('weather-result')).toHaveText(/^failed: /);
  await page.getByTestId('locate').click();
  await expect(page.getByTestId('locate-result')).toHaveText(/^failed: /);
  // Aborted by the route (Chromium names the DevTools client that blocked it): the host was never looked up or reached.
  expect(failures.get(WEATHER_API)).toMatch(/^net::ERR_BLOCKED_BY_CLIENT\b/);
  expect(failures.get(MAPS_API)).toBe('net::ERR_CONNECTION_REFUSED');
  const [weather] = await harness.calls({ url: `${WEATHER_API}/*` });
  expect(weather).toMatchObject({ side: 'browser', answered: false, unhandled: 'failed' });
  await harness.expectCalled({ url: `${MAPS_API}/*` }, { times: 1 });
});

test("a mock that sets its own CORS keeps it: an allow-origin naming another site fails the page's call, as that API's would", async ({ page, harness }) => {
  await harness.switchScenario('paymentDeclined');
  await harness.use({ method: 'GET', url: `${MAPS_API}/v1/geocode`, response: { headers: { 'access-control-allow-origin': 'https://other.example.test' }, body: { city: 'Nowhere', lat: 0, lng: 0 } } });
  await page.goto('/stores');
  await page.getByTestId('locate').click();
  await expect(page.getByTestId('locate-result')).toHaveText(/^failed: /);
  // The call was answered (200): the browser refused the answer to the page.
  await harness.expectCalled({ url: `${MAPS_API}/*` }, { times: 1 });
  expect((await harness.calls({ url: `${MAPS_API}/*` }))[0]).toMatchObject({ side: 'browser', answered: true, status: 200, layer: 'test' });
});

test("the inspector marks the page's calls as the browser's, beside the server's", async ({ browser, baseURL, page, harness }) => {
  await harness.switchScenario('premium');
  await page.goto('/stores');
  await page.getByTestId('me-server').click();
  await expect(page.getByTestId('me-server-result')).not.toBeEmpty();
  await page.getByTestId('locate').click();
  await expect(page.getByTestId('locate-result')).not.toBeEmpty();
  const context = await browser.newContext({ baseURL });
  const inspector = await context.newPage();
  await inspector.goto(`/__harness__/#test=${encodeURIComponent(harness.testId)}`);
  const calls = inspector.locator('#journal tr.call');
  await expect(calls).toHaveCount(2);
  await expect(calls.nth(0).locator('.chip.side')).toHaveCount(0);
  await expect(calls.nth(1).locator('.chip.side')).toHaveText('browser');
  await calls.nth(1).click();
  await expect(inspector.locator('tr.details')).toContainText('browser (the page called it; answered through the app)');
  await context.close();
});
