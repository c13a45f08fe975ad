import { createHarnessClient, type HarnessClient } from 'scenario-harness/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RuntimeName } from '../../scripts/ensure-runtimes.mjs';
import { REAL_GREETING, startUpstream, type Upstream } from '../conformance/upstream.js';
import { requireRuntime } from './require-runtime.js';
import { startRuntimeApp, type RuntimeApp } from './start-runtime-app.js';

const API = 'https://api.example.test';

/**
 * The harness on Bun or Deno: a Hono app on the runtime's own server (test/runtimes/fixtures),
 * driven over HTTP from Node with the client, as a user's tests drive it. Without the pinned
 * binary the suite is skipped with the command that installs it; on CI it fails instead
 * (requireRuntime).
 */
export function defineRuntimeSuite(runtime: RuntimeName): void {
  const installed = requireRuntime(runtime, { suite: `the harness on ${runtime}`, file: `test/runtimes/${runtime}.test.ts` });
  if (installed === undefined) return;

  let app: RuntimeApp;
  let nodeApp: RuntimeApp;
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
    [app, nodeApp] = await Promise.all([startRuntimeApp(runtime, installed.binary), startRuntimeApp(runtime, installed.binary, { app: 'node-app.js' })]);
  });
  afterAll(async () => {
    await Promise.all([app?.stop(), nodeApp?.stop()]);
    await upstream?.close();
  });

  const client = () => createHarnessClient({ baseURL: app.origin });
  /** What the app's call to `url` got, through the route `path` (`/fetch` or `/http`). */
  async function appCall(harness: HarnessClient, path: string, url: string, body?: unknown, origin = app.origin): Promise<unknown> {
    const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    const response = await fetch(`${origin}${path}?url=${encodeURIComponent(url)}`, { ...init, headers: { ...init.headers, ...harness.headers } });
    expect(response.status).toBe(200);
    return response.json();
  }

  test(`the start-up line names what ${runtime} cannot intercept`, () => {
    // console.info writes it to stdout before the app prints `listening <port>` there: already read.
    expect(app.output()).toContain(`on ${runtime === 'bun' ? 'Bun' : 'Deno'} ${installed.version} NOT intercepted: fetch references taken before harness.start()`);
  });

  test(`the runtime's global WebSocket is answered by the test's socket mock, per test, with a real handshake`, async () => {
    const [plain, grumpy] = [client(), client()];
    await grumpy.switchScenario('grumpy');
    const talk = (harness: HarnessClient) => fetch(`${app.origin}/socket?url=${encodeURIComponent('wss://prices.example.test/v1/eu')}`, { headers: harness.headers }).then((response) => response.json());
    const [open, closed] = await Promise.all([talk(plain), talk(grumpy)]);
    expect(open).toEqual({ frames: [{ type: 'hello', market: 'eu' }, { type: 'price', sku: 'book', price: 10 }], code: 1000, reason: '', url: 'wss://prices.example.test/v1/eu', protocol: 'prices.v1' });
    expect(closed).toMatchObject({ frames: [{ type: 'closed', market: 'eu' }], code: 4000, reason: 'market closed' });
    await plain.expectSent('wss://prices.example.test/v1/eu', { json: { type: 'subscribe', sku: 'book' } }, { times: 1 });
  });

  test('answers the app fetch from the scenario and variant each test selected', async () => {
    const [plain, grumpy, shouting] = [client(), client(), client()];
    await grumpy.switchScenario('grumpy');
    await shouting.switchScenario('grumpy', { variant: 'shouting' });
    expect(await appCall(plain, '/fetch', `${API}/greeting`)).toEqual({ status: 200, body: { greeting: 'hello' } });
    expect(await appCall(grumpy, '/fetch', `${API}/greeting`)).toEqual({ status: 200, body: { greeting: 'go away' } });
    expect(await appCall(shouting, '/fetch', `${API}/greeting`)).toEqual({ status: 200, body: { greeting: 'GO AWAY' } });
  });

  /** The greeting two tests (default and grumpy) get through `via` while both are in flight in the app at once. */
  async function greetingsInFlight(via: 'fetch' | 'axios' | 'got'): Promise<unknown[]> {
    const [plain, grumpy] = [client(), client()];
    await grumpy.switchScenario('grumpy');
    const [plainGate, grumpyGate] = [upstream.gate(plain.testId), upstream.gate(grumpy.testId)];
    const get = (harness: HarnessClient) =>
      fetch(`${app.origin}/gated-greeting?via=${via}&gate=${encodeURIComponent(`${upstream.origin}/upstream/gate/${harness.testId}`)}`, { headers: harness.headers }).then((response) => response.json());
    const answers = [get(plain), get(grumpy)];
    // Both requests wait inside the app at once; released in the opposite order they came in.
    await Promise.all([plainGate.arrived, grumpyGate.arrived]);
    grumpyGate.release();
    plainGate.release();
    return Promise.all(answers);
  }
  const GREETINGS_IN_FLIGHT = [
    { status: 200, body: { greeting: 'hello' } },
    { status: 200, body: { greeting: 'go away' } },
  ];

  test('keeps two tests in flight apart across a real call on the runtime', async () => {
    expect(await greetingsInFlight('fetch')).toEqual(GREETINGS_IN_FLIGHT);
  });

  test('matches the body, fills templates and writes state', async () => {
    const harness = client();
    expect(await appCall(harness, '/fetch', `${API}/orders`, { item: 'book', quantity: 2 })).toEqual({ status: 201, body: { id: 'order-book', quantity: 2 } });
    expect(await appCall(harness, '/fetch', `${API}/orders`, { item: 'lamp', quantity: 1 })).toEqual({ status: 409, body: { error: 'out of stock' } });
    expect(await harness.getState()).toEqual({ orders: ['book'] });
  });

  test('reads the state the test seeded', async () => {
    const harness = client();
    await harness.setState({ count: 3 });
    expect(await appCall(harness, '/fetch', `${API}/cart`)).toEqual({ status: 200, body: { count: 3 } });
  });

  test('answers the mocks one test added for itself first', async () => {
    const [mine, other] = [client(), client()];
    await mine.use({ method: 'GET', url: `${API}/greeting`, response: { body: { greeting: 'just for me' } } });
    expect(await appCall(mine, '/fetch', `${API}/greeting`)).toEqual({ status: 200, body: { greeting: 'just for me' } });
    expect(await appCall(other, '/fetch', `${API}/greeting`)).toEqual({ status: 200, body: { greeting: 'hello' } });
  });

  test('advances a sequence per test', async () => {
    const [first, second] = [client(), client()];
    expect(await appCall(first, '/fetch', `${API}/status`)).toEqual({ status: 503, body: { up: false } });
    expect(await appCall(first, '/fetch', `${API}/status`)).toEqual({ status: 200, body: { up: true } });
    expect(await appCall(second, '/fetch', `${API}/status`)).toEqual({ status: 503, body: { up: false } });
  });

  test('answers node:http and node:https clients', async () => {
    const harness = client();
    expect(await appCall(harness, '/http', `${API}/users/7`)).toEqual({ status: 200, body: { id: '7', name: 'User 7' } });
    await harness.switchScenario('grumpy');
    expect(await appCall(harness, '/http', `${API}/greeting`)).toEqual({ status: 200, body: { greeting: 'go away' } });
  });

  // axios (pinned to its node:http adapter) and got: the node:http/https clients of the issue's item 2.
  for (const library of ['axios', 'got'] as const) {
    test(`answers ${library} from each test's scenario, two tests in flight at once`, async () => {
      expect(await greetingsInFlight(library)).toEqual(GREETINGS_IN_FLIGHT);
    });

    test(`matches the JSON body ${library} posts`, async () => {
      const harness = client();
      expect(await appCall(harness, `/${library}`, `${API}/orders`, { item: 'book', quantity: 2 })).toEqual({ status: 201, body: { id: 'order-book', quantity: 2 } });
      expect(await appCall(harness, `/${library}`, `${API}/orders`, { item: 'lamp', quantity: 1 })).toEqual({ status: 409, body: { error: 'out of stock' } });
      expect(await harness.getState()).toEqual({ orders: ['book'] });
    });

    test(`fails a call through ${library} that no mock answers with the harness's message (unhandled: 'error')`, async () => {
      const harness = client();
      const message = `No mock answers GET ${API}/nothing for test "${harness.testId}" in scenario "default"; the call fails (unhandled: 'error')`;
      expect(await appCall(harness, `/${library}`, `${API}/nothing`)).toEqual({ failed: expect.stringContaining(message) });
    });
  }

  test("passes calls no mock answers to a loopback server through the runtime's own fetch and node:http", async () => {
    const harness = client();
    const real = { status: 200, body: { greeting: REAL_GREETING } };
    expect(await appCall(harness, '/fetch', `${upstream.origin}/upstream/greeting`)).toEqual(real);
    expect(await appCall(harness, '/http', `${upstream.origin}/upstream/greeting`)).toEqual(real);
  });

  test("fails a call no mock answers with the harness's message (unhandled: 'error')", async () => {
    const harness = client();
    const message = `No mock answers GET ${API}/nothing for test "${harness.testId}" in scenario "default"; the call fails (unhandled: 'error')`;
    expect(await appCall(harness, '/fetch', `${API}/nothing`)).toEqual({ failed: expect.stringContaining(message) });
    expect(await appCall(harness, '/http', `${API}/nothing`)).toEqual({ failed: expect.stringContaining(message) });
  });

  test('hands a mocked redirect over as written, and says so once', async () => {
    const harness = client();
    expect(await appCall(harness, '/fetch', `${API}/old-greeting`)).toEqual({ status: 302, body: '' });
    await app.waitForOutput(`A mock answered GET ${API}/old-greeting with a redirect (302 to ${API}/greeting), which this runtime's fetch cannot follow`);
  });

  test("runs scenario-harness/node on the runtime's node:http server, each request as its test", async () => {
    const [plain, grumpy] = [createHarnessClient({ baseURL: nodeApp.origin }), createHarnessClient({ baseURL: nodeApp.origin })];
    await grumpy.switchScenario('grumpy', { variant: 'shouting' });
    expect(await appCall(plain, '/fetch', `${API}/greeting`, undefined, nodeApp.origin)).toEqual({ status: 200, body: { greeting: 'hello' } });
    expect(await appCall(grumpy, '/fetch', `${API}/greeting`, undefined, nodeApp.origin)).toEqual({ status: 200, body: { greeting: 'GO AWAY' } });
    expect(await appCall(grumpy, '/http', `${API}/greeting`, undefined, nodeApp.origin)).toEqual({ status: 200, body: { greeting: 'GO AWAY' } });
  });

  test("refuses a raw node:net connection off the machine (unhandled: 'error')", async () => {
    // Without the guard the lookup of this reserved name fails instead (ENOTFOUND): nothing leaves the machine either way.
    const response = await fetch(`${app.origin}/connect?host=api.example.test&port=443`, { headers: client().headers });
    expect(await response.json()).toEqual({ failed: expect.stringContaining('[scenario-harness] Blocked a connection to api.example.test:443') });
  });

  test("journals the test's calls from fetch and node:http", async () => {
    const harness = client();
    await appCall(harness, '/fetch', `${API}/greeting`);
    await appCall(harness, '/http', `${API}/users/7`);
    await appCall(harness, '/fetch', `${API}/nothing`);
    // Unanswered calls to loopback are never journaled (docs/journal.md): the app's own servers live there.
    await appCall(harness, '/fetch', `${upstream.origin}/upstream/greeting`);
    const calls = await harness.calls();
    expect(calls.map(({ method, url, answered, status }) => ({ method, url, answered, status }))).toEqual([
      { method: 'GET', url: `${API}/greeting`, answered: true, status: 200 },
      { method: 'GET', url: `${API}/users/7`, answered: true, status: 200 },
      { method: 'GET', url: `${API}/nothing`, answered: false, status: undefined },
    ]);
    expect(calls[0]).toMatchObject({ scenarioId: 'default', layer: 'scenario', mockIndex: 0 });
  });

  /** The app's answer to `path`, read as it comes; `readUntil` stops once the text holds what a held stream sent. */
  async function readAppStream(harness: HarnessClient, path: string) {
    const reader = (await fetch(`${app.origin}${path}`, { headers: harness.headers })).body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    return {
      async readUntil(expected: string) {
        while (!text.includes(expected)) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`The app's answer ended before ${JSON.stringify(expected)}: ${JSON.stringify(text)}`);
          text += value;
        }
        return text;
      },
      async readAll() {
        for (let read = await reader.read(); !read.done; read = await reader.read()) text += read.value;
        return text;
      },
    };
  }

  test.each([
    ['fetch', '/relay'],
    ['node:http', '/relay-http'],
  ])(`holds a stream through %s on ${runtime} until the test releases it`, async (_client, route) => {
    const harness = client();
    await harness.switchScenario('held');
    const page = await readAppStream(harness, `${route}?url=${encodeURIComponent(`${API}/feed`)}`);
    expect(await harness.waitForStream('feed', { state: 'held' })).toMatchObject({ delivered: 2, total: 3 });
    expect(await page.readUntil('data: two')).toBe('data: one\n\ndata: two\n\n');
    await harness.releaseStream('feed');
    expect(await page.readAll()).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
  });

  test(`holds an llm answer the openai SDK streams on ${runtime}, then gives the rest`, async () => {
    const harness = client();
    await harness.switchScenario('held');
    const page = await readAppStream(harness, '/chat');
    await harness.waitForStream('chat', { state: 'held' });
    expect(await page.readUntil('Hello from')).toBe('Hello from');
    await harness.releaseStream('chat');
    expect(await page.readAll()).toBe('Hello from the runtime\n[Hello from the runtime]');
  });
}
