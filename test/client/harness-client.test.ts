/**
 * scenario-harness/client over real HTTP against the demo shop (Express): every control call,
 * the headers it sends, its errors, and the retry of a connection the server resets under a
 * reused keep-alive socket (a real server doing it, not a mock).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { request as playwrightRequest } from '@playwright/test';
import { createHarness, isHarnessError } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { HarnessClient } from 'scenario-harness/playwright';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { createShopApp } from '../../examples/shop/app.js';
import { shopScenarios } from '../../examples/shop/scenarios.js';
import { freePort } from '../support/free-port.js';

/**
 * What the shop's server does to a request before the app sees it:
 * - `reset-reused-once`: the next request that arrives on a kept-alive connection (not its
 *   first) is answered with a TCP reset, as when the server closes an idle connection just as
 *   the client reuses it;
 * - `close-reused-once`: the same, with the socket destroyed without a reset;
 * - `reset-next`: the next request is reset, on whatever connection (Playwright's request
 *   context opens one per request, so it never reuses one);
 * - `reset-all`: every request is reset.
 */
type Fault = 'none' | 'reset-reused-once' | 'close-reused-once' | 'reset-next' | 'reset-all';

let origin: string;
let server: Server;
let fault: Fault = 'none';
const seen: { url: string; headers: IncomingHttpHeaders; outcome: 'served' | 'reset' }[] = [];
const harness = createHarness({ enabled: true, scenarios: shopScenarios, unhandled: 'error', announce: false });

beforeAll(async () => {
  await harness.start();
  const app = createShopApp(harness);
  const served = new WeakMap<Socket, number>();
  server = createServer((req, res) => {
    const count = served.get(req.socket) ?? 0;
    served.set(req.socket, count + 1);
    const reused = count > 0;
    if (fault === 'reset-all' || fault === 'reset-next' || (reused && (fault === 'reset-reused-once' || fault === 'close-reused-once'))) {
      seen.push({ url: req.url ?? '', headers: req.headers, outcome: 'reset' });
      if (fault === 'close-reused-once') req.socket.destroy();
      else req.socket.resetAndDestroy();
      if (fault !== 'reset-all') fault = 'none';
      return;
    }
    seen.push({ url: req.url ?? '', headers: req.headers, outcome: 'served' });
    app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await harness.stop();
});
beforeEach(() => {
  fault = 'none';
  seen.length = 0;
});

const client = () => createHarnessClient<typeof shopScenarios>({ baseURL: origin });

/** What the shop's `/api/me` answers for requests carrying `headers`. */
async function tierWith(headers: Record<string, string>): Promise<string> {
  return ((await (await fetch(`${origin}/api/me`, { headers })).json()) as { tier: string }).tier;
}

test('switchScenario, getActiveScenario, getState, waitForState and endTest work for the client\'s own test', async () => {
  const harnessClient = client();
  const neighbour = client();
  expect(harnessClient.testId).toMatch(/^[0-9a-f-]{36}$/);
  await harnessClient.switchScenario('premium', { variant: 'gold' });
  expect(await tierWith(harnessClient.headers)).toBe('gold');
  expect(await tierWith(neighbour.headers)).toBe('standard');
  expect(await harnessClient.getActiveScenario()).toEqual({ scenarioId: 'premium', scenarioName: 'Premium user', variant: 'gold' });
  expect(await neighbour.getActiveScenario()).toBeUndefined();

  const waiting = harnessClient.waitForState((state) => state['cart.lastAmount'] === 1999, { interval: 10 });
  await fetch(`${origin}/checkout`, { method: 'POST', headers: { ...harnessClient.headers, 'content-type': 'application/x-www-form-urlencoded' }, body: 'amount=1999' });
  expect(await waiting).toMatchObject({ 'cart.lastAmount': 1999 });
  expect(await harnessClient.getState()).toMatchObject({ 'cart.lastAmount': 1999 });
  expect(await neighbour.getState()).toEqual({});

  await harnessClient.endTest();
  expect(await harnessClient.getActiveScenario()).toBeUndefined();
  expect(await harnessClient.getState()).toEqual({});
});

test('every control call carries the test ID as x-harness-test-id and as the baggage member harness-test-id', async () => {
  const harnessClient = createHarnessClient({ baseURL: origin, testId: 'checkout test/1' });
  expect(harnessClient.headers).toEqual({ 'x-harness-test-id': 'checkout test/1', baggage: 'harness-test-id=checkout%20test%2F1' });
  await harnessClient.switchScenario('premium');
  await harnessClient.getActiveScenario();
  await harnessClient.getState();
  await harnessClient.listScenarios();
  await harnessClient.endTest();
  expect(seen.map(({ headers }) => [headers['x-harness-test-id'], headers.baggage])).toEqual(Array(5).fill(['checkout test/1', 'harness-test-id=checkout%20test%2F1']));
});

test('every control call, a bodiless DELETE included, says content-type: application/json (SvelteKit\'s and Astro\'s CSRF checks refuse none or text/plain), from the client and the Playwright fixture', async () => {
  const request = await playwrightRequest.newContext();
  try {
    for (const harnessClient of [createHarnessClient({ baseURL: origin }), new HarnessClient({ request, testId: `pw-${randomUUID()}`, baseURL: origin })]) {
      seen.length = 0;
      await harnessClient.switchScenario('premium');
      await harnessClient.getActiveScenario();
      await harnessClient.getState();
      await harnessClient.calls();
      await harnessClient.clearCalls();
      await harnessClient.endTest();
      expect(seen.map(({ headers }) => headers['content-type'])).toEqual(Array(6).fill('application/json'));
    }
  } finally {
    await request.dispose();
  }
});

test('listScenarios returns the app\'s catalogue', async () => {
  const scenarios = await client().listScenarios();
  expect(scenarios.map(({ id }) => id)).toEqual(Object.keys(shopScenarios));
  expect(scenarios.find(({ id }) => id === 'premium')).toEqual({ id: 'premium', name: 'Premium user', variants: ['gold'] });
});

test('a failed switch throws the server\'s message with its hint; an undeclared variant is switched and warned about', async () => {
  const warnings: string[] = [];
  const harnessClient = createHarnessClient<typeof shopScenarios>({ baseURL: origin, logger: { warn: (m) => warnings.push(m) } });
  const error: unknown = await harnessClient.switchScenario('PaymentDeclined' as 'paymentDeclined').catch((caught: unknown) => caught);
  expect(isHarnessError(error) && error.code).toBe('UNKNOWN_SCENARIO');
  expect((error as Error).message).toBe(
    `Failed to switch test "${harnessClient.testId}" to scenario "PaymentDeclined": POST ${origin}/__scenario__ answered 400: Scenario 'PaymentDeclined' not found. Did you forget to register it? Did you mean "paymentDeclined"? Registered scenarios: "default", "premium", "paymentDeclined", "slowNetwork", "usersDown", "orderPolling".`,
  );
  await harnessClient.switchScenario('premium', { variant: 'glod' as 'gold' });
  expect(warnings).toEqual([
    `Switched test "${harnessClient.testId}" to scenario "premium", but: Scenario "premium" declares no variant "glod", so it adds no mocks. Did you mean "gold"? Declared variants: "gold".`,
  ]);
  expect(await harnessClient.getActiveScenario()).toMatchObject({ variant: 'glod' });
});

test('waitForState times out with the last state it saw', async () => {
  // One poll or several: on a loaded machine the first read can take the whole 60 ms.
  const harnessClient = client();
  await expect(harnessClient.waitForState((state) => state.never === true, { timeout: 60, interval: 20 })).rejects.toThrow(
    new RegExp(`^Failed to wait for the state of test "${harnessClient.testId}": the predicate did not hold within 60 ms \\((1 poll|\\d+ polls)\\)\\. Last state seen: \\{\\}\\.`),
  );
});

test('a keep-alive connection reset under a control call is retried on a new connection', async () => {
  const harnessClient = client();
  await harnessClient.getState(); // opens the connection the next call reuses
  fault = 'reset-reused-once';
  await harnessClient.switchScenario('premium');
  expect(seen.map(({ outcome }) => outcome)).toEqual(['served', 'reset', 'served']);
  expect(await harnessClient.getActiveScenario()).toMatchObject({ scenarioId: 'premium' });

  fault = 'close-reused-once';
  await harnessClient.endTest();
  expect(seen.filter(({ url }) => url === '/__scenario__').map(({ outcome }) => outcome).slice(-2)).toEqual(['reset', 'served']);
  expect(await harnessClient.getActiveScenario()).toBeUndefined();
});

test('a connection reset every time fails after three attempts, saying so', async () => {
  const harnessClient = client();
  fault = 'reset-all';
  const error = (await harnessClient.getState().catch((caught: unknown) => caught)) as Error;
  expect(error.message).toMatch(
    new RegExp(`^Failed to read the state of test "${harnessClient.testId}": GET ${origin}/__harness__/state failed: .+ \\(3 attempts; the connection was reset each time\\)\\. Is the app running at ${origin}\\?$`),
  );
  expect(seen.map(({ outcome }) => outcome)).toEqual(['reset', 'reset', 'reset']);
});

test('a refused connection is not retried', async () => {
  const closedOrigin = `http://127.0.0.1:${await freePort()}`;
  const harnessClient = createHarnessClient({ baseURL: closedOrigin });
  await expect(harnessClient.endTest()).rejects.toThrow(
    new RegExp(`^Failed to end test "${harnessClient.testId}": DELETE ${closedOrigin}/__scenario__ failed: TypeError: fetch failed \\(Error: connect ECONNREFUSED [^)]+\\)\\. Is the app running at ${closedOrigin}\\?$`),
  );
});

test('the Playwright fixture\'s client retries a reset connection too, through Playwright\'s request context', async () => {
  const request = await playwrightRequest.newContext();
  try {
    const harnessClient = new HarnessClient<typeof shopScenarios>({ request, testId: `pw-${randomUUID()}`, baseURL: origin });
    await harnessClient.getState();
    fault = 'reset-next';
    await harnessClient.switchScenario('paymentDeclined');
    expect(seen.map(({ outcome }) => outcome)).toEqual(['served', 'reset', 'served']);
    expect(seen.every(({ headers }) => headers.baggage === `harness-test-id=${harnessClient.testId}`)).toBe(true);
    expect(await harnessClient.getActiveScenario()).toMatchObject({ scenarioId: 'paymentDeclined' });
  } finally {
    await request.dispose();
  }
});

test('the Playwright fixture\'s client, its connection reset every time, fails after three attempts, saying so (the fixture\'s teardown warns with this message)', async () => {
  const request = await playwrightRequest.newContext();
  try {
    const harnessClient = new HarnessClient({ request, testId: `pw-${randomUUID()}`, baseURL: origin });
    fault = 'reset-all';
    const error = (await harnessClient.endTest().catch((caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(
      new RegExp(`^Failed to end test "${harnessClient.testId}": DELETE ${origin}/__scenario__ failed: .+ \\(3 attempts; the connection was reset each time\\)\\. Is the app running at ${origin}\\?$`, 's'),
    );
    expect(seen.map(({ outcome }) => outcome)).toEqual(['reset', 'reset', 'reset']);
  } finally {
    await request.dispose();
  }
});

test('control calls can go straight into an in-process harness through the fetch option', async () => {
  const inProcess = createHarnessClient<typeof shopScenarios>({
    baseURL: 'http://app.test',
    fetch: async (url, init) => (await harness.handle(new Request(url, init))) ?? new Response(null, { status: 404 }),
  });
  await inProcess.switchScenario('premium');
  expect(await harness.getActiveScenario(inProcess.testId)).toEqual({ scenarioId: 'premium' });
  expect(seen).toEqual([]);
});

test.each([
  [{}, 'Invalid createHarnessClient options: expected "baseURL" to be the app\'s origin, such as "http://127.0.0.1:3000", instead got undefined.'],
  [{ baseURL: '127.0.0.1:3000' }, 'expected "baseURL" to be the app\'s origin'],
  [{ baseURL: 'http://127.0.0.1:3000', testId: '' }, 'expected "testId" to be a non-empty string, instead got "".'],
  [{ baseURL: 'http://127.0.0.1:3000', testId: 'a\nb' }, 'cannot be sent as a header value'],
  [{ baseURL: 'http://127.0.0.1:3000', endpoints: { getstate: '/s' } }, '"endpoints.getstate" is not an endpoint (did you mean "getState"?)'],
  [{ baseURL: 'http://127.0.0.1:3000', endpoints: { getState: 's' } }, 'expected "endpoints.getState" to be a path starting with "/"'],
  [{ baseURL: 'http://127.0.0.1:3000', fetch: 'fetch' }, 'expected "fetch" to be a function'],
])('bad options are refused at creation: %j', (options, message) => {
  expect(() => createHarnessClient(options as never)).toThrow(message);
});
