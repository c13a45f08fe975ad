/**
 * Issue 41, item 5: the journal keeps a socket's life (open, every frame with its direction,
 * opcode, size, data cut at `journal.maxBodyBytes`, the rule that answered or the near misses,
 * and the close with its code, reason and who closed it), and the test verifies against it with
 * `expectSent(url, match, { times })` and `waitForFrame`.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { journalUntil, newKey, startSocketApp } from './socket-app.js';

const URL = 'wss://orders.example.com/v1/stream';
const scenarios = {
  default: { name: 'Default', mocks: [] },
  orders: {
    name: 'An order stream',
    mocks: [],
    sockets: [
      {
        id: 'orders',
        url: URL,
        onConnect: [{ send: { json: { type: 'welcome' } } }],
        on: [
          { match: { json: { type: 'subscribe' } }, steps: [{ send: { json: { type: 'subscribed', channel: '{{body.channel}}' } } }] },
          { match: { regex: { source: '^PING \\d+$', flags: 'i' } }, steps: [{ send: 'PONG' }] },
        ],
      },
    ],
  },
};

let app: Awaited<ReturnType<typeof startSocketApp<typeof scenarios>>>;
beforeAll(async () => {
  app = await startSocketApp(scenarios, { journal: { maxBodyBytes: 16 } });
});
afterAll(() => app.stop());

async function opened() {
  const harness = await app.client('orders');
  const key = newKey();
  await app.call(harness, 'open', { key, client: 'ws', url: URL });
  return { harness, key };
}

test('every entry of a socket: open, frames both ways with opcode, size, data cut at maxBodyBytes, rule or near misses, close', async () => {
  const { harness, key } = await opened();
  const long = `${'a'.repeat(20)}`;
  await app.call(harness, 'send', { key, frames: [{ text: '{"type":"subscribe","channel":"eu"}' }, { text: 'ping 7' }, { text: long }, { binary: Buffer.alloc(20, 7).toString('base64') }] });
  await app.call(harness, 'wait', { key, count: 3 });
  await app.call(harness, 'close', { key, code: 4005, reason: 'app is done' });
  const entries = await journalUntil(harness, (all) => all.some((entry) => entry.kind === 'socket.close'));
  expect(entries[0]).toMatchObject({ kind: 'socket.open', method: 'GET', url: URL, side: 'server', answered: true, scenarioId: 'orders', layer: 'scenario', socket: { id: 'orders', connection: expect.stringMatching(/^s\d+-[0-9a-f]{4}$/) } });
  expect(entries[0]!.requestHeaders['sec-websocket-version']).toBe('13');
  const connection = entries[0]!.socket!.connection;
  expect(entries.every((entry) => entry.socket?.connection === connection)).toBe(true);
  const frames = entries.filter((entry) => entry.kind === 'socket.frame').map(({ socket }) => socket);
  expect(frames.filter((socket) => socket?.direction === 'sent')).toEqual([
    { id: 'orders', connection, direction: 'sent', opcode: 'text', size: 35, data: '{"type":"subscri', dataTruncated: true, rule: 'on[0]' },
    { id: 'orders', connection, direction: 'sent', opcode: 'text', size: 6, data: 'ping 7', rule: 'on[1]' },
    {
      id: 'orders',
      connection,
      direction: 'sent',
      opcode: 'text',
      size: 20,
      data: 'a'.repeat(16),
      dataTruncated: true,
      nearMisses: ['on[0].match.json: the frame is not JSON', 'on[1].match.regex: "aaaaaaaaaaaaaaaaaaaa" does not match /^PING \\d+$/i'],
    },
    { id: 'orders', connection, direction: 'sent', opcode: 'binary', size: 20, data: Buffer.alloc(16, 7).toString('base64'), dataTruncated: true, nearMisses: ['on[0].match.json: the frame is not JSON', 'on[1].match.regex: the frame is binary'] },
  ]);
  expect(frames.filter((socket) => socket?.direction === 'received').map((socket) => [socket?.rule, socket?.size, socket?.data, socket?.dataTruncated])).toEqual([
    ['onConnect', 18, '{"type":"welcome', true],
    ['on[0]', 36, '{"type":"subscri', true],
    ['on[1]', 4, 'PONG', undefined],
  ]);
  expect(entries.at(-1)).toMatchObject({ kind: 'socket.close', url: URL, socket: { id: 'orders', connection, code: 4005, reason: 'app is done', closedBy: 'app' } });
});

test('expectSent passes on the frames the app sent, counts them with times, and fails listing the frames', async () => {
  const { harness, key } = await opened();
  await app.call(harness, 'send', { key, frames: [{ text: 'PING 1' }, { text: 'ping 2' }, { binary: 'AQI=' }] });
  await app.call(harness, 'wait', { key, count: 3 });
  expect(await harness.expectSent(URL, { regex: { source: '^ping', flags: 'i' } }, { times: 2 })).toHaveLength(2);
  await harness.expectSent(URL, { text: 'PING 1' });
  await harness.expectSent(URL, { binary: 'AQI=' }, { times: 1 });
  await harness.expectSent('wss://orders.example.com/*', { text: 'ping 2' }, { times: 1 });
  // What the mock sent is no frame the app sent.
  await harness.expectSent(URL, { text: 'PONG' }, { times: 0 });
  const failure = await harness.expectSent(URL, { json: { type: 'subscribe' } }).then(
    () => undefined,
    (error: Error) => error.message,
  );
  expect(failure).toBe(
    [
      `Expected test "${harness.testId}" to send a JSON frame containing {"type":"subscribe"} on ${URL} at least once, but it sent none.`,
      'Frames on it (oldest first):',
      '  → text PING 1',
      '  → text ping 2',
      '  → binary AQI=',
    ].join('\n'),
  );
  await expect(harness.expectSent(URL, { regex: '^PING' }, { times: 2 })).rejects.toThrow(/exactly 2 times, but it sent 1\./);
  // Another test's journal is its own.
  const other = await app.client('orders');
  await expect(other.expectSent(URL, { text: 'PING 1' })).rejects.toThrow(/but it sent none\.\nNo frame went over it\./);
});

test('waitForFrame resolves when the frame comes, by direction, and fails after its timeout naming the frames', async () => {
  const { harness, key } = await opened();
  // Waiting before the app sends: it resolves once the mock's answer is journaled.
  const waiting = harness.waitForFrame(URL, { text: 'PONG' }, { direction: 'received' });
  await app.call(harness, 'send', { key, frames: [{ text: 'ping 3' }] });
  expect((await waiting).socket).toMatchObject({ direction: 'received', rule: 'on[1]', data: 'PONG' });
  expect((await harness.waitForFrame(URL, { text: 'ping 3' }, { direction: 'sent' })).socket?.direction).toBe('sent');
  expect((await harness.waitForFrame(URL, { regex: '^ping' })).socket?.direction).toBe('sent');
  await expect(harness.waitForFrame(URL, { text: 'ping 3' }, { direction: 'received', timeout: 100 })).rejects.toThrow(/none within 100 ms/);
  // A frame cut in the journal never matches: only whole frames do.
  await app.call(harness, 'send', { key, frames: [{ text: '{"type":"subscribe","channel":"us"}' }] });
  await app.call(harness, 'wait', { key, count: 3 });
  const failure = await harness.waitForFrame(URL, { json: { type: 'subscribed' } }, { timeout: 150 }).then(
    () => undefined,
    (error: Error) => error.message,
  );
  expect(failure).toBe(
    [
      `Failed to wait for a JSON frame containing {"type":"subscribed"} on ${URL} for test "${harness.testId}": none within 150 ms.`,
      'Frames on it (oldest first):',
      '  ← text {"type":"welcome (cut)',
      '  → text ping 3',
      '  ← text PONG',
      '  → text {"type":"subscri (cut)',
      '  ← text {"type":"subscri (cut)',
    ].join('\n'),
  );
});
