/**
 * Issue 41, item 2: every client the app may open a socket with gets a real RFC 6455 handshake
 * with a socket mock (each checks the accept key itself, and the subprotocol it offered), text
 * and binary frames both ways, and the mock's close code. The socket is opened inside an
 * Express route while a request runs as the test, which drives the app over HTTP.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLIENTS, journalUntil, newKey, startSocketApp } from './socket-app.js';

const URL = 'wss://feed.example.com/v1/prices';
const scenarios = {
  default: { name: 'Default', mocks: [] },
  prices: {
    name: 'Prices over a socket',
    mocks: [],
    sockets: [
      {
        id: 'prices',
        url: URL,
        protocol: 'prices.v2',
        onConnect: [{ send: { json: { type: 'hello' } } }],
        on: [
          { match: { json: { type: 'quote' } }, steps: [{ send: { json: { type: 'price', sku: '{{body.sku}}', price: 12 } } }] },
          // Bytes in, bytes out: 01 02 03 gets 04 05 06.
          { match: { binary: 'AQID' }, steps: [{ send: { base64: 'BAUG' } }] },
          { match: { text: 'bye' }, steps: [{ close: { code: 4000, reason: 'see you' } }] },
        ],
      },
    ],
  },
};

let app: Awaited<ReturnType<typeof startSocketApp<typeof scenarios>>>;
beforeAll(async () => {
  app = await startSocketApp(scenarios);
});
afterAll(() => app.stop());

describe.each(CLIENTS)('the %s WebSocket', (client) => {
  test('handshake with the subprotocol, a text and a binary frame answered, closed by the mock with its code', async () => {
    const harness = await app.client('prices');
    const key = newKey();
    const opened = await app.call(harness, 'open', { key, client, url: URL, protocols: ['other', 'prices.v2'] });
    expect(opened).toEqual({ protocol: 'prices.v2', got: expect.any(Array) });
    await app.call(harness, 'send', { key, frames: [{ text: JSON.stringify({ type: 'quote', sku: 'book' }) }, { binary: 'AQID' }, { text: 'bye' }] });
    const { got, closed } = await app.call(harness, 'wait', { key, closed: true });
    expect(got).toEqual([{ text: '{"type":"hello"}' }, { text: '{"type":"price","sku":"book","price":12}' }, { binary: 'BAUG' }]);
    expect(closed).toEqual({ code: 4000, reason: 'see you' });
    const entries = await journalUntil(harness, (all) => all.some((entry) => entry.kind === 'socket.close'));
    // The app's frames are journaled as they arrive, the mock's answers as they go: each direction in its order.
    const frames = (direction: string) => entries.filter((entry) => entry.socket?.direction === direction).map((entry) => [entry.socket?.opcode, entry.socket?.rule, entry.socket?.data]);
    expect(frames('sent')).toEqual([
      ['text', 'on[0]', '{"type":"quote","sku":"book"}'],
      ['binary', 'on[1]', 'AQID'],
      ['text', 'on[2]', 'bye'],
    ]);
    expect(frames('received')).toEqual([
      ['text', 'onConnect', '{"type":"hello"}'],
      ['text', 'on[0]', '{"type":"price","sku":"book","price":12}'],
      ['binary', 'on[1]', 'BAUG'],
    ]);
    expect(entries.map((entry) => entry.kind)).toEqual(['socket.open', ...Array(6).fill('socket.frame'), 'socket.close']);
    expect(entries[0]).toMatchObject({ url: URL, side: 'server', scenarioId: 'prices', layer: 'scenario', socket: { id: 'prices', protocol: 'prices.v2' } });
    expect(entries.at(-1)!.socket).toMatchObject({ code: 4000, reason: 'see you', closedBy: 'mock' });
  });

  test('the app closes with its own code', async () => {
    const harness = await app.client('prices');
    const key = newKey();
    await app.call(harness, 'open', { key, client, url: URL, protocols: ['prices.v2'] });
    const { closed } = await app.call(harness, 'close', { key, code: 4002, reason: 'done here' });
    expect(closed).toEqual({ code: 4002, reason: 'done here' });
    const entries = await journalUntil(harness, (all) => all.some((entry) => entry.kind === 'socket.close'));
    expect(entries.find((entry) => entry.kind === 'socket.close')?.socket).toMatchObject({ code: 4002, reason: 'done here', closedBy: 'app' });
  });
});
