/**
 * An enabled harness nobody started is never silently inert (decisions/unstarted-harness.md):
 * over real HTTP through Express, an app request is refused with the fix, a control request
 * starts it, and a stopped harness is left alone.
 * @see issue 15, "No silent traps"
 */
import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createHarness, type Harness, type Logger } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { withHarness } from 'scenario-harness/node';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';

const REAL = 'from the real upstream';

/** The "third-party API": a loopback server that counts the calls that reached it. */
let upstream: { origin: string; calls: number; server: Server };
beforeAll(async () => {
  const server = createServer((_req, res) => {
    upstream.calls += 1;
    res.end(REAL);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream = { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: 0, server };
});
afterAll(() => new Promise<void>((resolve) => upstream.server.close(() => resolve())));

const scenarios = () => ({
  default: { name: 'Default', mocks: [{ url: `${upstream.origin}/greeting`, response: { body: 'mocked' } }] },
  other: { name: 'Other', mocks: [{ url: `${upstream.origin}/greeting`, response: { body: 'other' } }] },
});

interface App {
  harness: Harness;
  logged: { level: string; message: string }[];
  get(path: string, testId?: string): Promise<{ status: number; text: string }>;
  post(path: string, body: unknown, testId?: string): Promise<{ status: number; body: Record<string, unknown> }>;
}

const servers: Server[] = [];
const harnesses: Harness[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await Promise.all(harnesses.splice(0).map((harness) => harness.stop()));
});

/** An Express app whose route calls the upstream, with a harness that is not started. */
async function appWithUnstartedHarness(): Promise<App> {
  const logged: App['logged'] = [];
  const logger: Logger = {
    info: (message) => logged.push({ level: 'info', message }),
    warn: (message) => logged.push({ level: 'warn', message }),
    error: (message) => logged.push({ level: 'error', message }),
  };
  const harness = createHarness({ enabled: true, scenarios: scenarios(), logger });
  harnesses.push(harness);
  const app = express();
  app.use(harnessMiddleware(harness));
  app.get('/greeting', async (_req, res) => void res.send(await (await fetch(`${upstream.origin}/greeting`)).text()));
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const headers = (testId?: string): Record<string, string> => (testId === undefined ? {} : { 'x-harness-test-id': testId });
  return {
    harness,
    logged,
    async get(path, testId) {
      const response = await fetch(`${origin}${path}`, { headers: headers(testId) });
      return { status: response.status, text: await response.text() };
    },
    async post(path, body, testId) {
      const response = await fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers(testId) }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
  };
}

test('an app request to a harness that was never started is refused with the fix, and nothing reaches the network', async () => {
  const app = await appWithUnstartedHarness();
  const callsBefore = upstream.calls;
  const answer = await app.get('/greeting', 't-1');
  expect(answer.status).toBe(500);
  // Express's own error page (NODE_ENV is not production) shows the message.
  expect(answer.text).toContain('the harness is enabled but was never started');
  expect(answer.text).toContain('Call await harness.start() once when the app starts');
  expect(upstream.calls).toBe(callsBefore);
  await app.get('/greeting', 't-2');
  // Logged once, in the app's log, whatever its error handler does with the thrown error.
  expect(app.logged).toEqual([
    {
      level: 'error',
      message: `Failed to run a request as test "t-1": the harness is enabled but was never started, so the app's outgoing calls would reach the real network. Call await harness.start() once when the app starts, before it serves requests (Next.js: await registerHarness(harness) in instrumentation.ts).`,
    },
  ]);
});

test('with node:http, the refusal is a 500 that carries the fix, not a crashed server', async () => {
  const harness = createHarness({ enabled: true, scenarios: scenarios(), logger: { warn: () => {}, error: () => {} } });
  harnesses.push(harness);
  const server = createServer(withHarness(harness, (_req, res) => res.end('page')));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (let i = 0; i < 2; i++) {
    const response = await fetch(`${origin}/page`);
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: string }).error).toMatch(/^Failed to run a request as test "default-test": the harness is enabled but was never started/);
  }
});

test('a control request starts a harness nobody started, warns once, and app requests are then intercepted', async () => {
  const app = await appWithUnstartedHarness();
  const testId = randomUUID();
  expect(await app.post('/__scenario__', { scenario: 'other' }, testId)).toEqual({ status: 200, body: { success: true, testId, scenarioId: 'other' } });
  await app.post('/__scenario__', { scenario: 'default' }, randomUUID());
  expect(app.logged.filter(({ level }) => level === 'warn')).toEqual([
    {
      level: 'warn',
      message: 'Started by the first control request (POST /__scenario__): harness.start() was not called. Call await harness.start() when the app starts; until a harness is started, app requests are refused.',
    },
  ]);
  const callsBefore = upstream.calls;
  expect(await app.get('/greeting', testId)).toEqual({ status: 200, text: 'other' });
  expect(await app.get('/greeting')).toEqual({ status: 200, text: 'mocked' });
  expect(upstream.calls).toBe(callsBefore);
});

test('a harness started and then stopped lets requests through: stop() is deliberate', async () => {
  const app = await appWithUnstartedHarness();
  await app.harness.start();
  expect(await app.get('/greeting', 't-1')).toEqual({ status: 200, text: 'mocked' });
  await app.harness.stop();
  expect(await app.get('/greeting', 't-1')).toEqual({ status: 200, text: REAL });
  expect(app.logged.filter(({ level }) => level !== 'info')).toEqual([]);
});

test('start() logs one line: on, how many scenarios, the control endpoints, the inspector and unhandled', async () => {
  const app = await appWithUnstartedHarness();
  await app.harness.start();
  await app.harness.start();
  expect(app.logged).toEqual([
    {
      level: 'info',
      message: "on: intercepting outgoing calls with 2 scenarios; control endpoints POST|DELETE /__scenario__, GET /__scenario__, GET|POST /__harness__/state, GET /__harness__/scenarios, GET|POST|DELETE /__harness__/mocks, POST /__harness__/answer, GET|DELETE /__harness__/journal; inspector /__harness__/ (open it in a browser); unhandled calls: 'warn'.",
    },
  ]);
});

test('the start-up line goes to console.info with the prefix by default, names custom paths, leaves out a journal that is off, and announce: false silences it', async () => {
  const lines: string[] = [];
  const original = console.info;
  console.info = (...args: unknown[]) => void lines.push(args.join(' '));
  try {
    const harness = createHarness({ enabled: true, scenarios: { default: { name: 'D', mocks: [] } }, unhandled: 'error', journal: false, endpoints: { getState: '/t/state', inspector: '/t/inspect/' } });
    harnesses.push(harness);
    await harness.start();
    const quiet = createHarness({ enabled: true, scenarios: scenarios(), announce: false });
    harnesses.push(quiet);
    await quiet.start();
  } finally {
    console.info = original;
  }
  expect(lines).toEqual([
    "[scenario-harness] on: intercepting outgoing calls with 1 scenario; control endpoints POST|DELETE /__scenario__, GET /__scenario__, GET|POST /t/state, GET /__harness__/scenarios, GET|POST|DELETE /__harness__/mocks, POST /__harness__/answer; inspector /t/inspect/ (open it in a browser); unhandled calls: 'error'.",
  ]);
});

test('a disabled harness says nothing unless asked, and then says how to turn it on', async () => {
  const logged: string[] = [];
  const logger: Logger = { info: (m) => logged.push(m), warn: (m) => logged.push(m), error: (m) => logged.push(m) };
  await createHarness({ enabled: false, scenarios: scenarios(), logger }).start();
  expect(logged).toEqual([]);
  await createHarness({ enabled: false, scenarios: scenarios(), logger, announce: true }).start();
  expect(logged).toEqual([
    "disabled (enabled: false): nothing is intercepted and the control endpoints are not served. Tests need enabled: true, e.g. createHarness({ enabled: process.env.HARNESS_ENABLED === 'true', ... }).",
  ]);
});

test('announce must be a boolean', () => {
  expect(() => createHarness({ enabled: true, scenarios: scenarios(), announce: 'yes' as never })).toThrow('Invalid createHarness options: expected "announce" to be true or false, instead got "yes".');
});
