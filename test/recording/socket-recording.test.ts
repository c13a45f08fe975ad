/**
 * Recording a WebSocket (issue 41, item 6): a test that records has its app's socket relayed to
 * the real server (a `ws` server on loopback, reached under a name that is not loopback), each
 * frame kept both ways with its time; the draft replays them as a `sockets` entry, a secret in a
 * frame redacted.
 */
import dns from 'node:dns';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHarness, type ScenarioMap } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { harnessMiddleware } from 'scenario-harness/express';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';

const SECRET = 'sk_live_socket_secret_value_123';
let feed: string;
let server: WebSocketServer;
const lookup = dns.lookup;

beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (socket) => {
    socket.send(JSON.stringify({ type: 'hello' }));
    // The upstream's own pace: the recording must keep it.
    setTimeout(() => socket.send(JSON.stringify({ type: 'tick', n: 1 })), 40);
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; sku: string };
      if (message.type === 'subscribe') socket.send(JSON.stringify({ type: 'price', sku: message.sku, price: 10, key: SECRET }));
    });
  });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  feed = `ws://feed.upstream.test:${(server.address() as AddressInfo).port}/v1`;
  // The real feed's name resolves to loopback, as DNS would resolve it (the relay's connection looks it up).
  (dns as { lookup: unknown }).lookup = (host: string, options: unknown, callback: unknown) =>
    host === 'feed.upstream.test' ? (typeof options === 'function' ? options : (callback as (...args: unknown[]) => void))(null, (options as { all?: boolean })?.all ? [{ address: '127.0.0.1', family: 4 }] : '127.0.0.1', 4) : (lookup as (...args: unknown[]) => void)(host, options, callback);
});
afterAll(async () => {
  (dns as { lookup: unknown }).lookup = lookup;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** An app whose route opens the feed, subscribes after the tick, and hands back every frame until the price. */
async function startApp(scenarios: ScenarioMap) {
  process.env.RECORD_SOCKET_SECRET = SECRET;
  const harness = createHarness({ enabled: true, unhandled: 'error', announce: false, scenarios, recording: { secrets: { env: ['RECORD_SOCKET_SECRET'] } }, logger: { warn: () => {}, error: () => {} } });
  await harness.start();
  const app = express().use(harnessMiddleware(harness));
  app.get('/feed', (_req, res) => {
    const frames: { at: number; data: unknown }[] = [];
    const started = performance.now();
    const socket = new WebSocket(feed);
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string };
      frames.push({ at: performance.now() - started, data: message });
      if (message.type === 'tick') socket.send(JSON.stringify({ type: 'subscribe', sku: 'book' }));
      if (message.type === 'price') socket.close(1000, 'done');
    });
    socket.on('close', (code) => res.json({ frames, code }));
    socket.on('error', (error) => res.status(502).json({ error: error.message }));
  });
  const listening = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => listening.once('listening', resolve));
  const origin = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  return { origin, close: async () => (listening.close(), await harness.stop()) };
}

test('a recorded socket drafts as a sockets entry that replays its frames, their timing, and no secret', async () => {
  const recording = await startApp({ default: { name: 'Empty', mocks: [] } });
  const client = createHarnessClient({ baseURL: recording.origin, testId: 'socket-recorder' });
  await client.startRecording('all');
  const live = (await (await fetch(`${recording.origin}/feed`, { headers: client.headers })).json()) as { frames: { at: number; data: unknown }[]; code: number };
  expect(live.frames.map((frame) => frame.data)).toEqual([{ type: 'hello' }, { type: 'tick', n: 1 }, { type: 'price', sku: 'book', price: 10, key: SECRET }]);
  const draft = await client.stopRecording();
  await recording.close();

  expect(draft.fileText).not.toContain(SECRET);
  const scenario = Object.values(draft.scenarios as ScenarioMap)[0]!;
  expect(scenario.mocks).toEqual([]);
  const [socket, ...others] = scenario.sockets!;
  expect(others).toEqual([]);
  // The steps keep the upstream's pace: a delay before each frame that came later than the one before.
  const sends = (steps: readonly object[]) => steps.filter((step) => !('delay' in step));
  expect(socket!.url).toBe(feed);
  expect(sends(socket!.onConnect!)).toEqual([{ send: { json: { type: 'hello' } } }, { send: { json: { type: 'tick', n: 1 } } }]);
  expect(socket!.on!.map(({ match, steps }) => ({ match, steps: sends(steps) }))).toEqual([
    { match: { json: { type: 'subscribe', sku: 'book' } }, steps: [{ send: { json: { type: 'price', sku: 'book', price: 10, key: '[redacted]' } } }] },
  ]);
  const tick = socket!.onConnect!.findIndex((step) => 'send' in step && JSON.stringify(step).includes('tick'));
  const recordedGap = (socket!.onConnect![tick - 1] as { delay: number }).delay;
  // The pace the recording saw, which the app saw too (one process, one hop apart): not the
  // upstream's 40 ms itself, which a late hello shortens (a CI replica's relay got it 16 ms late
  // and recorded 23.9 ms, as the app saw it).
  const liveGap = live.frames[1]!.at - live.frames[0]!.at;
  expect(recordedGap).toBeGreaterThan(0);
  expect(Math.abs(recordedGap - liveGap)).toBeLessThan(15);

  // Replayed with no upstream at all: the same frames, and the tick sent the recorded gap after the
  // hello (timed where the mock sends them, from its journal: the app's own reads add jitter).
  server.clients.forEach((client) => client.terminate());
  const replay = await startApp(draft.scenarios as ScenarioMap);
  try {
    const player = createHarnessClient({ baseURL: replay.origin, testId: 'socket-replayer' });
    const replayed = (await (await fetch(`${replay.origin}/feed`, { headers: player.headers })).json()) as { frames: { at: number; data: unknown }[]; code: number };
    expect(replayed.frames.map((frame) => frame.data)).toEqual([{ type: 'hello' }, { type: 'tick', n: 1 }, { type: 'price', sku: 'book', price: 10, key: '[redacted]' }]);
    const sent = (await player.calls({ url: feed })).filter((entry) => entry.kind === 'socket.frame' && entry.socket?.direction === 'received');
    const [hello, tickFrame] = sent.map((entry) => Date.parse(entry.at));
    // The journal's clock has whole milliseconds.
    expect(tickFrame! - hello!).toBeGreaterThanOrEqual(Math.floor(recordedGap) - 1);
  } finally {
    await replay.close();
  }
});
