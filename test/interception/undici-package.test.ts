/**
 * The undici package and fetch references captured before start(): both reach the harness
 * through undici's global dispatcher slot.
 */
import { randomUUID } from 'node:crypto';
import { Agent, Client, fetch as undiciFetch, getGlobalDispatcher, request, setGlobalDispatcher, stream, type Dispatcher } from 'undici';
import { Writable } from 'node:stream';
import { afterEach, expect, test } from 'vitest';
import { startHarness, stopStartedHarnesses } from '../engine/with-harness.js';
import { installTripwire } from './tripwire.js';
import { startUpstream } from './upstream.js';

// Captured at import time, before any harness starts: how SDK clients built at module scope hold fetch.
const capturedFetch = globalThis.fetch;

const scenarios = {
  default: {
    name: 'Default',
    mocks: [
      { method: 'GET' as const, url: 'https://api.x.test/who', response: { body: { who: 'default' } } },
      { method: 'POST' as const, url: 'https://api.x.test/echo', match: { body: { n: 1 } }, response: { status: 201, body: { got: '{{body.n}}' } } },
    ],
  },
  alice: {
    name: 'Alice',
    mocks: [
      { url: 'https://api.x.test/who', response: { headers: { 'x-who': 'alice' }, body: { who: 'alice' } } },
      { url: 'https://api.x.test/count', sequence: { responses: [{ body: { n: 1 } }, { body: { n: 2 } }] } },
    ],
  },
};

let tripwire: ReturnType<typeof installTripwire> | undefined;
// The harness's patches sit on top of the tripwire's: they come off first.
afterEach(async () => {
  await stopStartedHarnesses();
  tripwire?.remove();
  tripwire = undefined;
});

test('undici.request, undici.fetch and undici.stream are answered from the test\'s scenario', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest('alice', async () => {
    const viaRequest = await request('https://api.x.test/who');
    expect([viaRequest.statusCode, viaRequest.headers['x-who'], await viaRequest.body.json()]).toEqual([200, 'alice', { who: 'alice' }]);
    expect(await (await undiciFetch('https://api.x.test/who')).json()).toEqual({ who: 'alice' });
    const chunks: Buffer[] = [];
    await stream('https://api.x.test/who', { method: 'GET' }, () => new Writable({ write: (chunk, _encoding, done) => (chunks.push(chunk), done()) }));
    expect(JSON.parse(Buffer.concat(chunks).toString())).toEqual({ who: 'alice' });
  });
});

test('a fetch captured before start() is answered, with sequences and body matching per test', async () => {
  const { asTest } = await startHarness(scenarios);
  const [a, b] = [randomUUID(), randomUUID()];
  await asTest('alice', async () => {
    expect(await (await capturedFetch('https://api.x.test/count')).json()).toEqual({ n: 1 });
    expect(await (await capturedFetch('https://api.x.test/count')).json()).toEqual({ n: 2 });
  }, a);
  await asTest(undefined, async () => {
    expect(await (await capturedFetch('https://api.x.test/who')).json()).toEqual({ who: 'default' });
    const posted = await capturedFetch('https://api.x.test/echo', { method: 'POST', body: JSON.stringify({ n: 1 }), headers: { 'content-type': 'application/json' } });
    expect([posted.status, await posted.json()]).toEqual([201, { got: 1 }]);
  }, b);
});

test('undici.request with a body is matched on it, and a body read for matching still reaches the real server on a pass-through', async () => {
  const upstream = await startUpstream((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c)).on('end', () => res.end(`upstream got ${body}`));
  });
  const { asTest } = await startHarness({
    default: { name: 'D', mocks: [{ method: 'POST', url: `${upstream.origin}/echo`, match: { body: { n: 2 } }, response: { body: 'mocked' } }] },
  }, { unhandled: 'bypass' });
  await asTest(undefined, async () => {
    const matched = await request(`${upstream.origin}/echo`, { method: 'POST', body: JSON.stringify({ n: 2 }) });
    expect(await matched.body.text()).toBe('mocked');
    const passed = await request(`${upstream.origin}/echo`, { method: 'POST', body: JSON.stringify({ n: 3 }) });
    expect(await passed.body.text()).toBe('upstream got {"n":3}');
    const passedFetch = await capturedFetch(`${upstream.origin}/echo`, { method: 'POST', body: JSON.stringify({ n: 4 }) });
    expect(await passedFetch.text()).toBe('upstream got {"n":4}');
  });
});

test('calls no mock answers go to the dispatcher the app set before start() (a proxy keeps working)', async () => {
  const upstream = await startUpstream((_req, res) => res.end('from upstream'));
  const seen: string[] = [];
  const agent = new Agent();
  // A dispatcher the app configured, as a ProxyAgent would be: it must still carry unanswered calls.
  const appDispatcher = agent.compose((dispatch) => (options, handler) => {
    seen.push(`${options.method} ${String(options.origin)}${options.path}`);
    return dispatch(options, handler);
  });
  const before = getGlobalDispatcher();
  setGlobalDispatcher(appDispatcher);
  try {
    const { harness, asTest } = await startHarness(scenarios, { unhandled: 'bypass' });
    await asTest('alice', async () => {
      expect(await (await capturedFetch(`${upstream.origin}/plain`)).text()).toBe('from upstream');
      expect(await (await request(`${upstream.origin}/plain`)).body.text()).toBe('from upstream');
      expect(await (await fetch(`${upstream.origin}/plain`)).text()).toBe('from upstream');
      expect(await (await fetch('https://api.x.test/who')).json()).toEqual({ who: 'alice' });
    });
    expect(seen).toEqual([`GET ${upstream.origin}/plain`, `GET ${upstream.origin}/plain`, `GET ${upstream.origin}/plain`]);
    await harness.stop();
    expect(getGlobalDispatcher()).toBe(appDispatcher);
  } finally {
    setGlobalDispatcher(before);
    await agent.close();
  }
});

test('an app that replaces the global dispatcher after start() is told loudly, and the harness keeps answering', async () => {
  const upstream = await startUpstream((_req, res) => res.end('from upstream'));
  const { harness, logs, asTest } = await startHarness(scenarios, { unhandled: 'bypass' });
  const before = getGlobalDispatcher();
  const seen: string[] = [];
  const late = new Agent().compose((dispatch) => (options, handler) => (seen.push(String(options.path)), dispatch(options, handler)));
  setGlobalDispatcher(late);
  try {
    await asTest('alice', async () => {
      expect(await (await fetch('https://api.x.test/who')).json()).toEqual({ who: 'alice' });
      expect(await (await request('https://api.x.test/who')).body.json()).toEqual({ who: 'alice' });
      expect(await (await request(`${upstream.origin}/late`)).body.text()).toBe('from upstream');
    });
    expect(seen).toEqual(['/late']);
    expect(logs.join('\n')).toMatch(/error: The app replaced undici's global dispatcher after harness.start\(\).*Call setGlobalDispatcher\(\) before harness.start\(\)/s);
    await harness.stop();
    expect(getGlobalDispatcher()).toBe(late);
  } finally {
    setGlobalDispatcher(before);
  }
});

test('stop() puts back fetch, both dispatcher slots and the socket connect exactly', async () => {
  const slots = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')];
  const net = await import('node:net');
  const read = () => ({
    fetch: globalThis.fetch,
    slots: slots.map((slot) => (globalThis as Record<symbol, unknown>)[slot]),
    connect: net.Socket.prototype.connect,
  });
  const before = read();
  const { harness } = await startHarness(scenarios);
  const during = read();
  expect(during.fetch).not.toBe(before.fetch);
  expect(during.slots[0]).not.toBe(before.slots[0]);
  expect(during.slots[1]).toBe(during.slots[0]);
  expect(during.connect).not.toBe(before.connect);
  await harness.stop();
  expect(read()).toEqual(before);
});

test('a handler of undici 8\'s shape (onRequestStart … onResponseEnd) is answered through the .2 slot', async () => {
  const { asTest } = await startHarness(scenarios);
  const dispatcher = (globalThis as Record<symbol, Dispatcher>)[Symbol.for('undici.globalDispatcher.2')]!;
  const events: unknown[] = [];
  await asTest('alice', () =>
    new Promise<void>((resolve, reject) => {
      dispatcher.dispatch({ origin: 'https://api.x.test', path: '/who', method: 'GET', headers: {} }, {
        onRequestStart: () => events.push('start'),
        onResponseStart: (_controller, status, headers) => events.push(status, headers['x-who']),
        onResponseData: (_controller, chunk) => events.push(chunk.toString()),
        onResponseEnd: () => resolve(),
        onResponseError: (_controller, error) => reject(error),
      } as Dispatcher.DispatchHandler);
    }),
  );
  expect(events).toEqual(['start', 200, 'alice', '{"who":"alice"}']);
});

test('with unhandled: \'error\', an undici Client the app built itself cannot reach the network, and says how to fix it', async () => {
  tripwire = installTripwire();
  const { asTest, logs } = await startHarness(scenarios, { unhandled: 'error' });
  const client = new Client('https://api.real.example');
  await asTest('alice', async () => {
    const error = await client.request({ path: '/v1/thing', method: 'GET' }).then(() => undefined, (e: unknown) => e as Error);
    expect(String((error as Error)?.message)).toMatch(/\[scenario-harness\] Blocked a connection to api\.real\.example:443.*allowHosts/);
    // The undici package's own request and fetch, unanswered: failed by the harness, never connected.
    const viaRequest = await request('https://api.real.example/v1/thing').then(() => undefined, (e: unknown) => e as Error);
    expect(viaRequest?.message).toMatch(/\[scenario-harness\] No mock answers GET https:\/\/api\.real\.example\/v1\/thing for test .* in scenario "alice"/);
    const viaFetch = await capturedFetch('https://api.real.example/v1/thing').then(() => undefined, (e: unknown) => e as TypeError);
    expect((viaFetch?.cause as Error)?.message).toMatch(/\[scenario-harness\] No mock answers GET/);
  });
  await client.close().catch(() => {});
  expect(tripwire.attempts).toEqual([]);
  expect(logs.some((line) => line.includes('Blocked a connection to api.real.example:443'))).toBe(true);
});

test('allowHosts lets the app reach a listed host for real even with unhandled: \'error\'', async () => {
  const upstream = await startUpstream((_req, res) => res.end('real'));
  const port = Number(new URL(upstream.origin).port);
  // An agent that resolves every name to loopback stands in for a private network with a database host.
  const agent = new Agent({ connect: { lookup: (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]) } });
  const before = getGlobalDispatcher();
  setGlobalDispatcher(agent);
  try {
    const { asTest } = await startHarness(scenarios, { unhandled: 'error', allowHosts: ['db.internal'] });
    await asTest(undefined, async () => {
      expect(await (await fetch(`http://db.internal:${port}/`)).text()).toBe('real');
      const refused = await fetch(`http://other.internal:${port}/`).then(() => undefined, (e: unknown) => e as TypeError);
      expect((refused?.cause as Error)?.message).toMatch(/No mock answers GET http:\/\/other\.internal/);
    });
  } finally {
    setGlobalDispatcher(before);
    await agent.close();
  }
});
