/**
 * Issue 41, item 1, over a running app: templates in sent frames read the matched frame, the
 * URL's params and query, and the test's state; `setState` writes the state an HTTP mock then
 * reads; `unmatched: 'close'` closes with 1008 where `'ignore'` keeps going, both journaling the
 * rules' near misses (delay.test.ts: `delay` steps).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { journalUntil, newKey, startSocketApp } from './socket-app.js';

const scenarios = {
  default: { name: 'Default', mocks: [] },
  shop: {
    name: 'A shop socket with state',
    mocks: [{ url: 'https://api.example.com/me', response: { body: { user: '{{state.user}}', cart: '{{state.cart}}' } } }],
    sockets: [
      {
        url: 'wss://shop.example.com/carts/:cart',
        onConnect: [{ send: { json: { cart: '{{params.cart}}', currency: '{{query.currency}}' } } }],
        on: [
          { match: { json: { op: 'login' } }, steps: [{ setState: { user: '{{body.user}}', cart: '{{params.cart}}' } }, { send: 'hello {{state.user}}' }] },
          { match: { regex: '^add (\\w+)$' }, steps: [{ send: { json: { added: '{{body}}', for: '{{state.user}}' } } }] },
        ],
      },
      { url: 'wss://shop.example.com/strict', unmatched: 'close' as const, on: [{ match: { text: 'ok' }, steps: [{ send: 'fine' }] }, { match: { json: { op: 'x' } }, steps: [] }] },
      { url: 'wss://shop.example.com/lenient', on: [{ match: { text: 'ok' }, steps: [{ send: 'fine' }] }, { match: { binary: 'AQID' }, steps: [] }] },
      { url: 'wss://shop.example.com/slow', onConnect: [{ send: 'first' }, { delay: 400 }, { send: 'second' }] },
    ],
  },
};

let app: Awaited<ReturnType<typeof startSocketApp<typeof scenarios>>>;
beforeAll(async () => {
  app = await startSocketApp(scenarios);
});
afterAll(() => app.stop());

test('templates from the URL, the matched frame and the state; setState read by a later frame and a later HTTP mock', async () => {
  const harness = await app.client('shop');
  const key = newKey();
  await app.call(harness, 'open', { key, client: 'ws', url: 'wss://shop.example.com/carts/c-9?currency=EUR' });
  await app.call(harness, 'send', { key, frames: [{ text: JSON.stringify({ op: 'login', user: 'ann' }) }] });
  await app.call(harness, 'wait', { key, count: 2 });
  await app.call(harness, 'send', { key, frames: [{ text: 'add socks' }] });
  const { got } = await app.call(harness, 'wait', { key, count: 3 });
  expect(got).toEqual([{ text: '{"cart":"c-9","currency":"EUR"}' }, { text: 'hello ann' }, { text: '{"added":"add socks","for":"ann"}' }]);
  expect(await harness.getState()).toEqual({ user: 'ann', cart: 'c-9' });
  // The app's next HTTP call, in the same test, reads what the socket wrote.
  expect(await app.call(harness, 'fetch', { url: 'https://api.example.com/me' })).toEqual({ status: 200, body: '{"user":"ann","cart":"c-9"}' });
  // Another test's state is its own.
  const other = await app.client('shop');
  expect(await app.call(other, 'fetch', { url: 'https://api.example.com/me' })).toEqual({ status: 200, body: '{}' });
});

test("unmatched: 'close' closes the socket with 1008 at the first frame no rule matches, the journal saying why each rule did not", async () => {
  const harness = await app.client('shop');
  const key = newKey();
  await app.call(harness, 'open', { key, client: 'global', url: 'wss://shop.example.com/strict' });
  await app.call(harness, 'send', { key, frames: [{ text: 'ok' }, { text: '{"op":"y"}' }, { text: 'ok' }] });
  const { got, closed } = await app.call(harness, 'wait', { key, closed: true });
  expect(got).toEqual([{ text: 'fine' }]);
  expect(closed).toEqual({ code: 1008, reason: 'No rule of the socket mock matches the frame' });
  const entries = await journalUntil(harness, (all) => all.some((entry) => entry.kind === 'socket.close'));
  const miss = entries.find((entry) => entry.socket?.data === '{"op":"y"}')!;
  expect(miss.socket?.rule).toBeUndefined();
  expect(miss.socket?.nearMisses).toEqual(['on[0].match.text: expected "ok", received "{\\"op\\":\\"y\\"}"', expect.stringMatching(/^on\[1\]\.match\.json/)]);
  expect(entries.at(-1)!.socket).toMatchObject({ code: 1008, closedBy: 'mock' });
});

test("unmatched: 'ignore' (the default) journals the near misses and answers the next frame that matches", async () => {
  const harness = await app.client('shop');
  const key = newKey();
  await app.call(harness, 'open', { key, client: 'undici', url: 'wss://shop.example.com/lenient' });
  await app.call(harness, 'send', { key, frames: [{ text: 'nope' }, { binary: 'CQk=' }, { text: 'ok' }] });
  const { got, closed } = await app.call(harness, 'wait', { key, count: 1 });
  expect(got).toEqual([{ text: 'fine' }]);
  expect(closed).toBeUndefined();
  const sent = (await journalUntil(harness, (all) => all.filter((entry) => entry.socket?.direction === 'sent').length === 3)).filter((entry) => entry.socket?.direction === 'sent');
  expect(sent.map((entry) => entry.socket?.nearMisses)).toEqual([
    ['on[0].match.text: expected "ok", received "nope"', 'on[1].match.binary: the frame is text'],
    ['on[0].match.text: the frame is binary', 'on[1].match.binary: expected 3 bytes (AQID), received 2 others'],
    undefined,
  ]);
});
