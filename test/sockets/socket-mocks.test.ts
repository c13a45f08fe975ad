/**
 * Issue 41, first slice: a scenario's `sockets` answer the app's WebSocket clients through the
 * harness's loopback bridge (a real RFC 6455 handshake), per test.
 */
import { expect, test } from 'vitest';
import WebSocket from 'ws';
import { startHarness } from '../engine/with-harness.js';

const scenarios = {
  default: {
    name: 'D',
    mocks: [],
    sockets: [
      {
        url: 'wss://live.example.com/prices/:sku',
        onConnect: [{ send: { json: { type: 'hello', sku: '{{params.sku}}' } } }],
        on: [{ match: { json: { type: 'ping' } }, steps: [{ send: { json: { type: 'pong', id: '{{body.id}}' } } }] }],
      },
    ],
  },
};

test('the ws package: onConnect, a rule answering a JSON frame with a template of it, and the journal', async () => {
  const { harness, asTest } = await startHarness(scenarios);
  const testId = await asTest(undefined, async (id) => {
    const socket = new WebSocket('wss://live.example.com/prices/book');
    const messages: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      socket.on('message', (data) => {
        messages.push(JSON.parse(String(data)));
        if (messages.length === 1) socket.send(JSON.stringify({ type: 'ping', id: 7 }));
        if (messages.length === 2) resolve();
      });
      socket.on('error', reject);
    });
    socket.close();
    expect(messages).toEqual([{ type: 'hello', sku: 'book' }, { type: 'pong', id: 7 }]);
    return id;
  });
  const entries = await harness.getCalls(testId);
  expect(entries.map((entry) => [entry.kind, entry.socket?.direction, entry.socket?.rule])).toEqual([
    ['socket.open', undefined, undefined],
    ['socket.frame', 'received', 'onConnect'],
    ['socket.frame', 'sent', 'on[0]'],
    ['socket.frame', 'received', 'on[0]'],
  ]);
});

test('the global WebSocket (undici): the same socket mock, params in the URL', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    const socket = new globalThis.WebSocket('wss://live.example.com/prices/pen');
    const first = await new Promise<string>((resolve, reject) => {
      socket.addEventListener('message', (event) => resolve(String(event.data)), { once: true });
      socket.addEventListener('error', () => reject(new Error('failed')), { once: true });
    });
    socket.close();
    expect(JSON.parse(first)).toEqual({ type: 'hello', sku: 'pen' });
  });
});
