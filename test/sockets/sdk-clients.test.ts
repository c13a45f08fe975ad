/**
 * Issue 41, item 2: the SDKs that open sockets of their own through the `ws` package, answered by
 * a socket mock per test. socket.io-client on its websocket transport talks Engine.IO v4 /
 * Socket.IO v5 with the mock (open packet, namespace connect, events, a binary attachment), and
 * the OpenAI SDK's `OpenAIRealtimeWS` gets a Realtime session as the API would answer it. Each
 * runs in an Express route while a request runs as the test.
 */
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { journalUntil, startSocketApp } from './socket-app.js';

const OPEN = '0{"sid":"s1","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}';
const REALTIME = 'wss://api.openai.com/v1/realtime';

const scenarios = {
  default: { name: 'Default', mocks: [] },
  chat: {
    name: 'A socket.io chat room',
    mocks: [],
    sockets: [
      {
        id: 'chat',
        url: 'wss://chat.example.com/socket.io/',
        onConnect: [{ send: OPEN }],
        on: [
          { match: { text: '40' }, steps: [{ send: '40{"sid":"x"}' }] },
          { match: { regex: '^42\\["join",' }, steps: [{ send: '42["joined",{"room":"lobby","members":3}]' }] },
          // A binary attachment: its placeholder packet first, then the bytes.
          { match: { regex: '^451-\\["blob",' }, steps: [] },
          { match: { binary: 'AQID' }, steps: [{ send: '451-["blob-back",{"_placeholder":true,"num":0}]' }, { send: { base64: 'BAUG' } }] },
          { match: { regex: '^42\\["leave"' }, steps: [{ close: { code: 4001, reason: 'left the room' } }] },
        ],
      },
    ],
  },
  realtime: {
    name: 'The OpenAI Realtime API',
    mocks: [],
    sockets: [
      {
        id: 'realtime',
        url: REALTIME,
        onConnect: [{ send: { json: { type: 'session.created', event_id: 'event_1', session: { type: 'realtime', object: 'realtime.session', id: 'sess_1', model: '{{query.model}}', output_modalities: ['audio'], instructions: '' } } } }],
        on: [
          {
            match: { json: { type: 'session.update' } },
            steps: [{ send: { json: { type: 'session.updated', event_id: 'event_2', session: { type: 'realtime', object: 'realtime.session', id: 'sess_1', model: '{{query.model}}', instructions: '{{body.session.instructions}}' } } } }],
          },
          {
            match: { json: { type: 'conversation.item.create', item: { type: 'message' } } },
            steps: [
              {
                send: {
                  json: { type: 'conversation.item.created', event_id: 'event_3', previous_item_id: null, item: { id: '{{body.item.id}}', object: 'realtime.item', type: 'message', status: 'completed', role: 'user', content: [{ type: 'input_text', text: '{{body.item.content.0.text}}' }] } },
                },
              },
            ],
          },
          { match: { json: { type: 'response.create' } }, steps: [{ send: { json: { type: 'error', event_id: 'event_4', error: { type: 'invalid_request_error', code: 'test_refusal', message: 'No responses in this test', param: null, event_id: null } } } }] },
        ],
      },
    ],
  },
};

const routes = {
  /** A socket.io room: connect, join, send bytes and get bytes back, leave (the server closes). */
  async socketio() {
    const socket = io('https://chat.example.com', { transports: ['websocket'], reconnection: false });
    const connected = new Promise<string | undefined>((resolve, reject) => {
      socket.once('connect', () => resolve(socket.id));
      socket.once('connect_error', reject);
    });
    const id = await connected;
    const joined = new Promise<unknown>((resolve) => socket.once('joined', resolve));
    socket.emit('join', { room: 'lobby' });
    const room = await joined;
    const back = new Promise<Buffer>((resolve) => socket.once('blob-back', resolve));
    socket.emit('blob', Buffer.from([1, 2, 3]));
    const bytes = await back;
    const gone = new Promise<{ reason: string; code: number | undefined; closeReason: string | undefined }>((resolve) =>
      socket.once('disconnect', (reason, details) => {
        const context = (details as { context?: { code?: number; reason?: Buffer | string } } | undefined)?.context;
        resolve({ reason, code: context?.code, closeReason: context?.reason?.toString() });
      }),
    );
    socket.emit('leave', { room: 'lobby' });
    return { id, room, bytes: Buffer.from(bytes).toString('base64'), disconnect: await gone };
  },
  /** A Realtime session: created, updated, an item added, a response refused with an error event, closed by the app. */
  async realtime() {
    const rt = new OpenAIRealtimeWS({ model: 'gpt-realtime' }, new OpenAI({ apiKey: 'sk-test-realtime', maxRetries: 0 }));
    const created = await new Promise<{ session: { model: string } }>((resolve, reject) => {
      rt.once('session.created', resolve as never);
      rt.socket.once('error', reject);
    });
    const updated = new Promise<{ session: { instructions: string } }>((resolve) => rt.once('session.updated', resolve as never));
    rt.send({ type: 'session.update', session: { type: 'realtime', instructions: 'Answer in one word.' } });
    const item = new Promise<{ item: { id: string; content: { text: string }[] } }>((resolve) => rt.once('conversation.item.created', resolve as never));
    rt.send({ type: 'conversation.item.create', item: { id: 'item_42', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello?' }] } });
    const [session, added] = await Promise.all([updated, item]);
    const failed = new Promise<{ message: string; code: string | undefined }>((resolve) => rt.once('error', (error) => resolve({ message: error.message, code: error.error?.code ?? undefined })));
    rt.send({ type: 'response.create' });
    const error = await failed;
    const closed = new Promise<number>((resolve) => rt.socket.once('close', (code) => resolve(code)));
    rt.close({ code: 1000, reason: 'done' });
    return { model: created.session.model, instructions: session.session.instructions, item: added.item, error, closed: await closed };
  },
};

let app: Awaited<ReturnType<typeof startSocketApp<typeof scenarios>>>;
beforeAll(async () => {
  app = await startSocketApp(scenarios, {}, routes);
});
afterAll(() => app.stop());

test('socket.io-client (websocket transport): connect, an event answered, a binary attachment both ways, the mock closes with 4001', async () => {
  const harness = await app.client('chat');
  const result = await app.call<Awaited<ReturnType<typeof routes.socketio>>>(harness, 'socketio', {});
  expect(result).toEqual({ id: 'x', room: { room: 'lobby', members: 3 }, bytes: 'BAUG', disconnect: { reason: 'transport close', code: 4001, closeReason: 'left the room' } });
  const entries = await journalUntil(harness, (all) => all.some((entry) => entry.kind === 'socket.close'));
  expect(entries[0]).toMatchObject({ kind: 'socket.open', url: 'wss://chat.example.com/socket.io/?EIO=4&transport=websocket', scenarioId: 'chat' });
  expect(entries.filter((entry) => entry.socket?.direction === 'sent').map((entry) => [entry.socket?.opcode, entry.socket?.data, entry.socket?.rule])).toEqual([
    ['text', '40', 'on[0]'],
    ['text', '42["join",{"room":"lobby"}]', 'on[1]'],
    ['text', '451-["blob",{"_placeholder":true,"num":0}]', 'on[2]'],
    ['binary', 'AQID', 'on[3]'],
    ['text', '42["leave",{"room":"lobby"}]', 'on[4]'],
  ]);
  expect(entries.at(-1)!.socket).toMatchObject({ code: 4001, reason: 'left the room', closedBy: 'mock' });
  await harness.expectSent('wss://chat.example.com/socket.io/*', { regex: '^42\\["join"' }, { times: 1 });
});

test('OpenAIRealtimeWS: session.created, session.update and conversation.item.create answered as the Realtime API would, an error event, the app closes', async () => {
  const harness = await app.client('realtime');
  const result = await app.call<Awaited<ReturnType<typeof routes.realtime>>>(harness, 'realtime', {});
  expect(result).toEqual({
    model: 'gpt-realtime',
    instructions: 'Answer in one word.',
    item: { id: 'item_42', object: 'realtime.item', type: 'message', status: 'completed', role: 'user', content: [{ type: 'input_text', text: 'Hello?' }] },
    error: { message: expect.stringMatching(/^No responses in this test code=test_refusal/), code: 'test_refusal' },
    closed: 1000,
  });
  const entries = await journalUntil(harness, (all) => all.some((entry) => entry.kind === 'socket.close'));
  expect(entries[0]).toMatchObject({ kind: 'socket.open', url: `${REALTIME}?model=gpt-realtime`, scenarioId: 'realtime', socket: { id: 'realtime' } });
  // The SDK's key went in the handshake: the journal keeps that it did, never the key.
  expect(entries[0]!.requestHeaders.authorization).not.toContain('sk-test-realtime');
  expect(entries.at(-1)!.socket).toMatchObject({ code: 1000, reason: 'done', closedBy: 'app' });
  await harness.expectSent(`${REALTIME}?model=gpt-realtime`, { json: { type: 'session.update', session: { instructions: 'Answer in one word.' } } }, { times: 1 });
});
