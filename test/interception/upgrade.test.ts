/**
 * Issue 38, item 3: an HTTP `Upgrade` from any client reaches the harness. Until socket mocks
 * land (issue 41) no HTTP mock answers one: it passes through to the real server, or under
 * `unhandled: 'error'` fails with the harness's message, and either way its journal entry says
 * `upgrade: 'websocket'`. Clients: the `ws` package (node:http) and Node's global WebSocket
 * (undici, through the global dispatcher). The server is a real `ws` server on loopback, reached
 * under a name that is not loopback (a lookup of the test's own resolves it), so the calls count
 * as the app's outgoing calls.
 */
import type { LookupFunction } from 'node:net';
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { startHarness, stopStartedHarnesses } from '../engine/with-harness.js';
import { installTripwire } from './tripwire.js';

const HOST = 'live.partner.example';
/** Resolves every name to loopback, in both of Node's answer shapes. */
const toLoopback = ((_host: string, options: { all?: boolean }, callback: (error: null, ...answer: unknown[]) => void) =>
  options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4)) as unknown as LookupFunction;

const tripwire = installTripwire();
/** Every handshake the real server accepted, by path. */
const accepted: string[] = [];
let server: WebSocketServer;
const agent = new Agent({ connect: { lookup: toLoopback } });
const before = getGlobalDispatcher();
let url: string;

beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (socket, request) => {
    accepted.push(request.url ?? '');
    socket.send('hello from the real server');
  });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  url = `ws://${HOST}:${(server.address() as { port: number }).port}`;
  // Calls no mock answers go on through the dispatcher that was there before the harness.
  setGlobalDispatcher(agent);
});
afterEach(async () => {
  await stopStartedHarnesses();
  accepted.length = 0;
});
afterAll(async () => {
  setGlobalDispatcher(before);
  await agent.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  tripwire.remove();
});

// A mock on the very URL: an HTTP answer is no answer to an upgrade, so it must not be used.
const scenarios = { default: { name: 'Live prices', mocks: [{ url: `http://${HOST}:*/prices`, response: { body: 'an HTTP answer' } }] } };

/** The first message a client got, or the error it ended with. */
function firstMessageOfWs(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url}${path}`, { lookup: toLoopback });
    socket.once('message', (data) => (socket.close(), resolve(String(data))));
    socket.once('error', reject);
  });
}
function firstMessageOfGlobalWebSocket(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new globalThis.WebSocket(`${url}${path}`);
    socket.addEventListener('message', (event) => (socket.close(), resolve(String(event.data))), { once: true });
    socket.addEventListener('error', () => reject(new Error('the WebSocket failed')), { once: true });
  });
}

const CLIENTS = { ws: firstMessageOfWs, 'global WebSocket (undici)': firstMessageOfGlobalWebSocket };

for (const [client, firstMessage] of Object.entries(CLIENTS)) {
  test(`${client}: an upgrade no mock answers passes through to the real server and is journaled as an upgrade`, async () => {
    const { harness, asTest } = await startHarness(scenarios, { unhandled: 'bypass' });
    const testId = await asTest(undefined, async (id) => {
      expect(await firstMessage('/prices')).toBe('hello from the real server');
      return id;
    });
    expect(accepted).toEqual(['/prices']);
    const [entry, ...more] = await harness.getCalls(testId);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ method: 'GET', url: `${url.replace('ws:', 'http:')}/prices`, upgrade: 'websocket', answered: false, unhandled: 'passed-through' });
  });

  test(`${client}: under unhandled: 'error' the upgrade fails with the harness's message, and nothing reaches the server`, async () => {
    const { harness, asTest, logs } = await startHarness(scenarios, { unhandled: 'error' });
    const testId = await asTest(undefined, async (id) => {
      await expect(firstMessage('/prices')).rejects.toThrow();
      return id;
    });
    expect(accepted).toEqual([]);
    expect(tripwire.attempts).toEqual([]);
    expect(logs.join('\n')).toMatch(/No mock answers the WebSocket upgrade GET http:\/\/live\.partner\.example:\d+\/prices for test .*unhandled: 'error'\)\. Add a socket mock for it \(a scenario's sockets\), or set unhandled to 'warn' or 'bypass' to let it through\.\n.*No socket mock of this test .* has this URL: add one/);
    expect(await harness.getCalls(testId)).toMatchObject([{ upgrade: 'websocket', answered: false, unhandled: 'failed' }]);
  });

  test(`${client}: allowHosts lets the upgrade through under unhandled: 'error'`, async () => {
    const { harness, asTest } = await startHarness(scenarios, { unhandled: 'error', allowHosts: [HOST] });
    const testId = await asTest(undefined, async (id) => {
      expect(await firstMessage('/prices')).toBe('hello from the real server');
      return id;
    });
    expect(await harness.getCalls(testId)).toMatchObject([{ upgrade: 'websocket', unhandled: 'passed-through (allowHosts)' }]);
  });
}

test('the ws client\'s error carries the harness\'s reason', async () => {
  const { asTest } = await startHarness(scenarios, { unhandled: 'error' });
  const error = await asTest(undefined, () => firstMessageOfWs('/prices').then(() => undefined, (e: unknown) => e as Error));
  expect(error?.message).toMatch(/\[scenario-harness\] No mock answers the WebSocket upgrade GET http:\/\/live\.partner\.example:\d+\/prices/);
});

test("a ws client with an agent of its own goes through that agent, and a socket mock says it cannot answer it", async () => {
  const { Agent: HttpAgent } = await import('node:http');
  const agent = new HttpAgent();
  const created: string[] = [];
  const createConnection = agent.createConnection.bind(agent);
  agent.createConnection = ((options: object, callback?: unknown) => (created.push('agent'), createConnection(options as never, callback as never))) as typeof agent.createConnection;
  const viaAgent = (path: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = new WebSocket(`${url}${path}`, { lookup: toLoopback, agent });
      socket.once('message', (data) => (socket.close(), resolve(String(data))));
      socket.once('error', reject);
    });
  const { asTest } = await startHarness(scenarios, { unhandled: 'bypass' });
  expect(await asTest(undefined, () => viaAgent('/prices'))).toBe('hello from the real server');
  expect(created).toEqual(['agent']);
  await stopStartedHarnesses();

  const sockets = { default: { name: 'Live prices', mocks: [], sockets: [{ url: `ws://${HOST}:*/prices`, onConnect: [{ send: 'mocked' }] }] } };
  const mocked = await startHarness(sockets, { unhandled: 'error' });
  const error = await mocked.asTest(undefined, () => viaAgent('/prices').then(() => undefined, (e: unknown) => e as Error));
  expect(error?.message).toMatch(/A socket mock answers GET http:\/\/live\.partner\.example:\d+\/prices, but a client with an agent of its own .* cannot hand the connection to it/);
  agent.destroy();
});
