import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness } from 'scenario-harness';
import { createNextHarness, harnessProxy, harnessRouteHandlers, registerHarness } from 'scenario-harness/next';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { conformanceScenarios } from '../conformance/scenarios.js';

/**
 * The Next.js adapter's pieces in-process, without Next: the real-app behaviour lives in the
 * conformance suite (next-app-router, next-pages-router) and next-server-calls.test.ts.
 */
const HEADER = 'x-harness-test-id';
const GREETING_URL = 'https://upstream.test/upstream/greeting';
const pristineFetch = globalThis.fetch;
const harness = createNextHarness({ enabled: true, scenarios: conformanceScenarios, unhandled: 'error' });
let server: Server;
let origin: string;

beforeAll(async () => {
  await registerHarness(harness);
  // A bare node:http server: no adapter wraps its listener, registerHarness alone scopes it.
  server = createServer(async (_req, res) => {
    const { greeting } = (await (await fetch(GREETING_URL)).json()) as { greeting: string };
    res.setHeader('content-type', 'application/json').end(JSON.stringify({ greeting, testId: harness.currentTestId() }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await harness.stop();
});

const control = (path: string, init: RequestInit = {}) => new Request(`http://app.test${path}`, init);

test('createNextHarness returns the one harness of the process however often the module is loaded (options after the first: only edited scenarios count)', () => {
  // Another bundle evaluating the same module: the same definitions, in a new object.
  expect(createNextHarness({ enabled: false, scenarios: { ...conformanceScenarios }, unhandled: 'bypass' })).toBe(harness);
  expect(harness.enabled).toBe(true);
  expect(harness.listScenarios().map((scenario) => scenario.id)).toEqual(Object.keys(conformanceScenarios));
});

test('registerHarness runs every inbound node:http request as the test its header names', async () => {
  const testId = randomUUID();
  await harness.switchScenario(testId, 'grumpy');
  const [mine, other, none] = await Promise.all([
    fetch(origin, { headers: { [HEADER]: testId } }),
    fetch(origin, { headers: { [HEADER]: randomUUID() } }),
    fetch(origin),
  ]);
  expect(await mine.json()).toEqual({ greeting: 'go away', testId });
  expect(await other.json()).toMatchObject({ greeting: 'hello from the default scenario' });
  expect(await none.json()).toEqual({ greeting: 'hello from the default scenario', testId: 'default-test' });
});

test('a fetch patched by Next.js after registerHarness skips its Data Cache layer and keeps its markers', async () => {
  const beneath = globalThis.fetch;
  const nextDataCache = vi.fn(async () => Response.json({ greeting: 'an answer Next cached for another test' }));
  globalThis.fetch = Object.assign(nextDataCache, { __nextPatched: true, _nextOriginalFetch: beneath });
  try {
    expect(await (await fetch(GREETING_URL)).json()).toEqual({ greeting: 'hello from the default scenario' });
    expect(nextDataCache).not.toHaveBeenCalled();
    expect((globalThis.fetch as typeof fetch & { __nextPatched?: boolean }).__nextPatched).toBe(true);
  } finally {
    globalThis.fetch = beneath;
  }
});

test('putting back the fetch from before registerHarness keeps the interception (next dev resets fetch after an edit)', async () => {
  const intercepted = globalThis.fetch;
  globalThis.fetch = pristineFetch;
  expect(globalThis.fetch).toBe(intercepted);
  expect(await (await fetch(GREETING_URL)).json()).toEqual({ greeting: 'hello from the default scenario' });
});

test('the route handlers answer the control endpoints, and explain a route file at another path', async () => {
  const { GET, POST, DELETE } = harnessRouteHandlers(harness);
  const testId = randomUUID();
  const switched = await POST(control('/__scenario__', { method: 'POST', headers: { 'content-type': 'application/json', [HEADER]: testId }, body: '{"scenario":"friendly"}' }));
  expect(await switched.json()).toEqual({ success: true, testId, scenarioId: 'friendly' });
  expect(await (await GET(control('/__harness__/state', { headers: { [HEADER]: testId } }))).json()).toEqual({ testId, state: {} });
  expect((await DELETE(control('/__scenario__', { method: 'DELETE', headers: { [HEADER]: testId } }))).status).toBe(200);
  const elsewhere = await GET(control('/scenario'));
  expect(elsewhere.status).toBe(404);
  expect(((await elsewhere.json()) as { error: string }).error).toContain('Failed to answer GET /scenario: not a control endpoint');
});

test('a disabled harness\'s route handlers answer 404, and a harness createNextHarness did not return draws a warning', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  try {
    const { POST } = harnessRouteHandlers(createHarness({ enabled: false, scenarios: conformanceScenarios }));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('harnessRouteHandlers() got a harness that createNextHarness() did not return'));
    const response = await POST(control('/__scenario__', { method: 'POST', body: '{"scenario":"friendly"}' }));
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('');
  } finally {
    warn.mockRestore();
  }
});

test('the proxy answers control paths and hands every other request to the app\'s own proxy', async () => {
  const appProxy = vi.fn((request: Request, event: { id: number }) => Response.json({ path: new URL(request.url).pathname, event: event.id }));
  const proxy = harnessProxy(harness, appProxy);
  const testId = randomUUID();
  const state = await proxy(control('/__harness__/state', { headers: { [HEADER]: testId } }), { id: 1 });
  expect(await state?.json()).toEqual({ testId, state: {} });
  expect(appProxy).not.toHaveBeenCalled();
  const other = await proxy(control('/dashboard'), { id: 2 });
  expect(await other?.json()).toEqual({ path: '/dashboard', event: 2 });
  expect(await harnessProxy(harness)(control('/dashboard'))).toBeUndefined();
});
