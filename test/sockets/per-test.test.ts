/**
 * Issue 41, items 2 and 3: a socket belongs to the test whose request opened it. Tests on the
 * same socket URL at once (different scenarios, a variant, a test's own sockets) each get their
 * own answers and journal; a socket opened outside any request answers from `default` and says
 * so; `unhandled: 'error'` refuses an unmocked socket before any lookup or connection.
 */
import { DEFAULT_TEST_ID } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { installTripwire } from '../interception/tripwire.js';
import { journalUntil, newKey, openSocket, refusedHandshakeClose, startSocketApp, type ClientName } from './socket-app.js';

const ROOM = 'wss://live.example.com/rooms/:room';
const scenarios = {
  default: { name: 'Default', mocks: [], sockets: [{ id: 'default-room', url: ROOM, onConnect: [{ send: 'default {{params.room}}' }], on: [{ match: { text: 'hi' }, steps: [{ send: 'default says hi' }] }] }] },
  red: { name: 'Red', mocks: [], sockets: [{ id: 'red-room', url: ROOM, onConnect: [{ send: 'red {{params.room}}' }], on: [{ match: { text: 'hi' }, steps: [{ send: 'red says hi' }] }] }] },
  blue: {
    name: 'Blue',
    mocks: [],
    sockets: [{ id: 'blue-room', url: ROOM, onConnect: [{ send: 'blue {{params.room}}' }], on: [{ match: { text: 'hi' }, steps: [{ send: 'blue says hi' }] }] }],
    variants: { gold: { mocks: [], sockets: [{ id: 'gold-room', url: ROOM, onConnect: [{ send: '{{variant}} {{params.room}}' }], on: [{ match: { text: 'hi' }, steps: [{ send: 'gold says hi' }] }] }] } },
  },
};

// Beneath the harness: a lookup or connection to a host that is not loopback is counted and refused.
const tripwire = installTripwire();
let app: Awaited<ReturnType<typeof startSocketApp<typeof scenarios>>>;
beforeAll(async () => {
  app = await startSocketApp(scenarios);
});
afterAll(async () => {
  await app.stop();
  tripwire.remove();
});

test('four tests on the same socket URL at once, each with its own answers and journal: two scenarios, a variant, own sockets', async () => {
  const [red, blue, gold, own] = await Promise.all([app.client('red'), app.client('blue'), app.client('blue', 'gold'), app.client('red')]);
  await own.useSockets({ id: 'own-room', url: ROOM, onConnect: [{ send: 'own {{params.room}}' }], on: [{ match: { text: 'hi' }, steps: [{ send: 'own says hi' }] }] });
  const tests = [
    { harness: red, client: 'ws', expected: ['red 7', 'red says hi'], layer: 'scenario', id: 'red-room' },
    { harness: blue, client: 'global', expected: ['blue 7', 'blue says hi'], layer: 'scenario', id: 'blue-room' },
    { harness: gold, client: 'undici', expected: ['gold 7', 'gold says hi'], layer: 'variant', id: 'gold-room' },
    { harness: own, client: 'ws', expected: ['own 7', 'own says hi'], layer: 'test', id: 'own-room' },
  ] as const;
  const keys = tests.map(() => newKey());
  await Promise.all(tests.map(({ harness, client }, i) => app.call(harness, 'open', { key: keys[i], client: client as ClientName, url: 'wss://live.example.com/rooms/7' })));
  // Every test's frame goes out before any test reads: answers cross if anything is shared.
  await Promise.all(tests.map(({ harness }, i) => app.call(harness, 'send', { key: keys[i], frames: [{ text: 'hi' }] })));
  const got = await Promise.all(tests.map(({ harness }, i) => app.call(harness, 'wait', { key: keys[i], count: 2 })));
  expect(got.map((one) => one.got.map((frame) => ('text' in frame ? frame.text : frame.binary)))).toEqual(tests.map((one) => one.expected));
  for (const { harness, layer, id } of tests) {
    const entries = await journalUntil(harness, (all) => all.filter((entry) => entry.kind === 'socket.frame').length === 3);
    expect(entries.map((entry) => [entry.kind, entry.socket?.id, entry.layer])).toEqual([
      ['socket.open', id, layer],
      ...Array(3).fill(['socket.frame', id, layer]),
    ]);
  }
  expect((await gold.calls())[0]).toMatchObject({ scenarioId: 'blue', variant: 'gold' });
  // A frame pushed to one test's socket reaches only that test's.
  expect(await blue.sendToSocket('wss://live.example.com/rooms/7', 'for blue only')).toBe(1);
  expect((await app.call(blue, 'wait', { key: keys[1], count: 3 })).got.at(-1)).toEqual({ text: 'for blue only' });
  for (const i of [0, 2, 3]) expect((await app.call(tests[i]!.harness, 'wait', { key: keys[i], count: 2 })).got).toHaveLength(2);
});

test("a socket keeps its test for its whole life: frames the app sends on it in another test's request, or in none, are still its test's", async () => {
  const [owner, bystander] = await Promise.all([app.client('red'), app.client('blue')]);
  const key = newKey();
  await app.call(owner, 'open', { key, client: 'ws', url: 'wss://live.example.com/rooms/3' });
  // The same socket, sent on while a request runs as another test, then outside any request.
  await app.call(bystander, 'send', { key, frames: [{ text: 'hi' }] });
  await app.call(undefined, 'send', { key, frames: [{ text: 'hi' }] });
  expect((await app.call(owner, 'wait', { key, count: 3 })).got).toEqual([{ text: 'red 3' }, { text: 'red says hi' }, { text: 'red says hi' }]);
  const entries = await journalUntil(owner, (all) => all.filter((entry) => entry.kind === 'socket.frame').length === 5);
  expect(entries.filter((entry) => entry.socket?.direction === 'sent').map((entry) => [entry.scenarioId, entry.socket?.rule])).toEqual([
    ['red', 'on[0]'],
    ['red', 'on[0]'],
  ]);
  expect(await bystander.calls()).toEqual([]);
});

test('a socket opened outside any request answers from default, and its journal (the default test\'s) says so', async () => {
  const socket = await openSocket('ws', 'wss://live.example.com/rooms/lobby');
  await socket.until(() => socket.got.length === 1, 'first frame');
  expect(socket.got).toEqual([{ text: 'default lobby' }]);
  socket.socket.close();
  await socket.until(() => socket.closed !== undefined, 'close');
  const opens = (await app.harness.getCalls(DEFAULT_TEST_ID)).filter((entry) => entry.kind === 'socket.open');
  expect(opens.at(-1)).toMatchObject({ url: 'wss://live.example.com/rooms/lobby', scenarioId: 'default', layer: 'default', socket: { id: 'default-room', outsideTest: true } });
  // A test that picked no scenario answers from default too, but inside its test.
  const plain = await app.client();
  await app.call(plain, 'open', { key: newKey(), client: 'global', url: 'wss://live.example.com/rooms/lobby' });
  const [open] = await journalUntil(plain, (all) => all.length > 0);
  expect(open).toMatchObject({ kind: 'socket.open', layer: 'default' });
  expect(open!.socket?.outsideTest).toBeUndefined();
});

test.each(['ws', 'global', 'undici'] as const)("%s: under unhandled: 'error' an unmocked socket is refused with the harness's message, before any lookup or connection", async (client) => {
  const harness = await app.client('red');
  const opened = await app.call(harness, 'open', { key: newKey(), client, url: 'wss://nowhere.example.com/feed' });
  expect(opened.error).toBeDefined();
  expect(opened.closed?.code).toBe(refusedHandshakeClose(client));
  if (client === 'ws') expect(opened.error).toMatch(/^\[scenario-harness\] No mock answers the WebSocket upgrade GET https:\/\/nowhere\.example\.com\/feed for test/);
  expect(tripwire.attempts).toEqual([]);
  expect(await harness.calls()).toMatchObject([{ url: 'https://nowhere.example.com/feed', upgrade: 'websocket', answered: false, unhandled: 'failed' }]);
  expect(app.logs.join('\n')).toContain(`No mock answers the WebSocket upgrade GET https://nowhere.example.com/feed for test "${harness.testId}"`);
});
