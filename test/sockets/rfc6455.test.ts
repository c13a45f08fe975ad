/**
 * Issue 41, item 2: the handshake and the frames behave as on a real RFC 6455 server. The
 * subprotocol is chosen as the spec says, a message the app sends in fragments reaches a rule
 * as one, a ping gets its pong, close codes and reasons go both ways, and an `error` step drops
 * the connection (the app sees 1006).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLIENTS, journalUntil, newKey, refusedHandshakeClose, startSocketApp } from './socket-app.js';

const scenarios = {
  default: { name: 'Default', mocks: [] },
  spec: {
    name: 'RFC 6455',
    mocks: [],
    sockets: [
      { url: 'wss://rfc.example.com/v2', protocol: 'chat.v2', onConnect: [{ send: 'v2' }] },
      { url: 'wss://rfc.example.com/any', onConnect: [{ send: 'any' }] },
      {
        url: 'wss://rfc.example.com/echo',
        on: [
          { match: { json: { op: 'join', room: 'lobby' } }, steps: [{ send: { json: { joined: '{{body.room}}', by: '{{body.user}}' } } }] },
          { match: { text: 'kick' }, steps: [{ close: { code: 4001, reason: 'kicked out' } }] },
          { match: { text: 'crash' }, steps: [{ send: 'about to fail' }, { error: 'the upstream fell over' }, { send: 'never sent' }] },
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
  test("a mock's protocol answers a client that offers it, among others, and picks it", async () => {
    const harness = await app.client('spec');
    const opened = await app.call(harness, 'open', { key: newKey(), client, url: 'wss://rfc.example.com/v2', protocols: ['chat.v1', 'chat.v2'] });
    expect(opened.protocol).toBe('chat.v2');
    expect((await journalUntil(harness, (all) => all.length > 0))[0]!.socket).toMatchObject({ protocol: 'chat.v2' });
  });

  test("a mock's protocol does not answer a client that does not offer it: under unhandled: 'error' the socket fails", async () => {
    const harness = await app.client('spec');
    const opened = await app.call(harness, 'open', { key: newKey(), client, url: 'wss://rfc.example.com/v2', protocols: ['chat.v1'] });
    expect(opened.error).toBeDefined();
    expect(opened.closed?.code).toBe(refusedHandshakeClose(client));
    expect(opened.got).toEqual([]);
    expect(await harness.calls()).toMatchObject([{ upgrade: 'websocket', answered: false, unhandled: 'failed' }]);
  });

  test('a mock with no protocol takes the first the client offers, and none when it offers none', async () => {
    const harness = await app.client('spec');
    const offered = await app.call(harness, 'open', { key: newKey(), client, url: 'wss://rfc.example.com/any', protocols: ['first', 'second'] });
    expect(offered.protocol).toBe('first');
    const none = await app.call(harness, 'open', { key: newKey(), client, url: 'wss://rfc.example.com/any' });
    expect(none.protocol).toBe('');
    const opens = (await journalUntil(harness, (all) => all.filter((entry) => entry.kind === 'socket.open').length === 2)).filter((entry) => entry.kind === 'socket.open');
    expect(opens.map((entry) => entry.socket?.protocol)).toEqual(['first', undefined]);
  });

  test('the mock closes with a code and reason the app sees; an error step drops the connection (1006) and the journal says why', async () => {
    const harness = await app.client('spec');
    const kicked = newKey();
    await app.call(harness, 'open', { key: kicked, client, url: 'wss://rfc.example.com/echo' });
    await app.call(harness, 'send', { key: kicked, frames: [{ text: 'kick' }] });
    expect((await app.call(harness, 'wait', { key: kicked, closed: true })).closed).toEqual({ code: 4001, reason: 'kicked out' });

    const crashed = newKey();
    await app.call(harness, 'open', { key: crashed, client, url: 'wss://rfc.example.com/echo' });
    await app.call(harness, 'send', { key: crashed, frames: [{ text: 'crash' }] });
    const after = await app.call(harness, 'wait', { key: crashed, closed: true });
    expect(after.got).toEqual([{ text: 'about to fail' }]);
    expect(after.closed?.code).toBe(1006);
    const entries = await journalUntil(harness, (all) => all.filter((entry) => entry.kind === 'socket.close').length === 2);
    expect(entries.filter((entry) => entry.kind === 'socket.close').map((entry) => entry.socket)).toMatchObject([
      { code: 4001, reason: 'kicked out', closedBy: 'mock' },
      { code: 1006, reason: 'the upstream fell over', closedBy: 'error' },
    ]);
  });
});

describe('the ws client, which can fragment and ping', () => {
  test('a message sent in three fragments reaches a rule as one message', async () => {
    const harness = await app.client('spec');
    const key = newKey();
    await app.call(harness, 'open', { key, client: 'ws', url: 'wss://rfc.example.com/echo' });
    await app.call(harness, 'send', { key, frames: [{ fragments: ['{"op":"jo', 'in","room":"lob', 'by","user":"ann"}'] }] });
    expect((await app.call(harness, 'wait', { key, count: 1 })).got).toEqual([{ text: '{"joined":"lobby","by":"ann"}' }]);
    const sent = (await harness.calls()).filter((entry) => entry.socket?.direction === 'sent');
    expect(sent.map((entry) => entry.socket)).toMatchObject([{ opcode: 'text', data: '{"op":"join","room":"lobby","user":"ann"}', size: 41, rule: 'on[0]' }]);
  });

  test('a ping gets a pong with its payload, and is no frame a rule sees', async () => {
    const harness = await app.client('spec');
    const key = newKey();
    await app.call(harness, 'open', { key, client: 'ws', url: 'wss://rfc.example.com/echo' });
    expect(await app.call(harness, 'ping', { key, data: 'are you there' })).toEqual({ pong: 'are you there' });
    expect((await harness.calls()).map((entry) => entry.kind)).toEqual(['socket.open']);
  });
});
