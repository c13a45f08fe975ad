/**
 * The inspector's socket timeline (issue 41, item 5), the part of the page's script that needs no
 * DOM: how it groups a test's journal (each connection one item, in time order, beside the HTTP
 * calls) and the words it shows for a frame, its rule and a close. The entries are a real
 * journal: an Express app opens real sockets (ws) to a socket mock, per test, over HTTP. The part
 * is cut out of src/inspector/inspector-page.html as the page runs it; test/browser/
 * inspector-sockets.spec.ts checks the page itself in chromium.
 */
import { readFileSync } from 'node:fs';
import type { JournalEntry } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { journalUntil, newKey, startSocketApp } from '../sockets/socket-app.js';

const FEED = 'wss://feed.example.test/v1/stream';
const scenarios = {
  default: { name: 'Default', mocks: [] },
  feed: {
    name: 'A price feed',
    mocks: [{ url: 'https://api.example.test/quote', response: { body: { price: 10 } } }],
    sockets: [
      {
        id: 'prices',
        url: FEED,
        protocol: 'feed.v1',
        onConnect: [{ send: { json: { type: 'welcome' } } }],
        on: [{ match: { json: { type: 'subscribe' } }, steps: [{ send: { json: { type: 'price', price: 12 } } }] }],
      },
    ],
  },
  dropped: { name: 'The feed drops', mocks: [], sockets: [{ url: FEED, onConnect: [{ error: 'the feed went away' }] }] },
};

interface SocketItem {
  type: 'socket';
  key: string;
  connection: string;
  url: string;
  side?: string;
  open?: JournalEntry;
  frames: JournalEntry[];
  close?: JournalEntry;
}
type Item = { type: 'call'; call: JournalEntry; index: number } | SocketItem;
interface PagePart {
  FRAMES_SHOWN: number;
  journalItems(calls: JournalEntry[]): Item[];
  journalCount(items: Item[]): string;
  frameContent(socket: NonNullable<JournalEntry['socket']>): { what: string; text: string; cut?: string };
  frameOrigin(socket: NonNullable<JournalEntry['socket']>): { text: string; misses: string[] };
  closeText(close: JournalEntry, side?: string): string;
  socketSummary(item: SocketItem): { state: string; stateText: string; frames: string; by: string; unmatched?: string; took: string };
  visibleFrames(frames: JournalEntry[], all: boolean): { hidden: number; shown: JournalEntry[] };
}

/** The page's socket part, between its two markers, run as the page runs it. */
function pagePart(): PagePart {
  const html = readFileSync(new URL('../../src/inspector/inspector-page.html', import.meta.url), 'utf8');
  const start = html.indexOf('/* ---------- sockets: ');
  const end = html.indexOf('/* ---------- end of sockets (pure) ---------- */');
  if (start < 0 || end < start) throw new Error("inspector-page.html has lost the markers around its socket part (this test runs what is between them)");
  return new Function(`'use strict';\n${html.slice(start, end)}\nreturn { FRAMES_SHOWN, journalItems, journalCount, frameContent, frameOrigin, closeText, socketSummary, visibleFrames };`)() as PagePart;
}

let app: Awaited<ReturnType<typeof startSocketApp<typeof scenarios>>>;
const page = pagePart();
beforeAll(async () => {
  app = await startSocketApp(scenarios, { journal: { maxBodyBytes: 64, maxEntries: 1000 } });
});
afterAll(() => app.stop());

const socketsOf = (items: Item[]) => items.filter((item): item is SocketItem => item.type === 'socket');

test("one test's sockets and calls in time order: each connection one item with its open, frames (words for each) and close", async () => {
  const harness = await app.client('feed');
  const first = newKey();
  await app.call(harness, 'open', { key: first, client: 'ws', url: FEED, protocols: ['feed.v1'] });
  await app.call(harness, 'send', { key: first, frames: [{ text: '{"type":"subscribe","sku":"book"}' }, { text: 'x'.repeat(100) }, { binary: 'AQID' }] });
  await app.call(harness, 'wait', { key: first, count: 2 });
  expect(await harness.sendToSocket(FEED, { json: { type: 'pushed' } })).toBe(1);
  await app.call(harness, 'wait', { key: first, count: 3 });
  await app.call(harness, 'fetch', { url: 'https://api.example.test/quote' });
  await app.call(harness, 'close', { key: first, code: 4002, reason: 'app is done' });
  const second = newKey();
  await app.call(harness, 'open', { key: second, client: 'global', url: FEED, protocols: ['feed.v1'] });
  await app.call(harness, 'wait', { key: second, count: 1 });
  expect(await harness.closeSocket(FEED, 4003, 'the test is done')).toBe(1);
  await app.call(harness, 'wait', { key: second, closed: true });
  const journal = await journalUntil(harness, (entries) => entries.filter((entry) => entry.kind === 'socket.close').length === 2);

  const items = page.journalItems(journal);
  expect(items.map((item) => (item.type === 'call' ? `call ${item.call.url}` : `socket ${item.connection}`))).toEqual([
    `socket ${journal[0]!.socket!.connection}`,
    'call https://api.example.test/quote',
    `socket ${journal.find((entry, index) => index > 0 && entry.kind === 'socket.open')!.socket!.connection}`,
  ]);
  expect(page.journalCount(items)).toBe('1 call · 2 sockets, 7 frames');
  const [one, two] = socketsOf(items);
  expect(one!.connection).not.toBe(two!.connection);
  expect(one!.open).toMatchObject({ kind: 'socket.open', socket: { protocol: 'feed.v1' } });
  // Sent and received frames interleave as the socket's queue runs them: each is found by its data.
  expect(one!.frames.map((entry) => entry.socket!.direction).sort()).toEqual(['received', 'received', 'received', 'sent', 'sent', 'sent']);
  expect(page.socketSummary(one!)).toMatchObject({ state: 'closed', stateText: 'closed 4002', frames: '6 frames (3 →, 3 ←)', by: 'by prices · scenario', unmatched: '2 frames from the app matched no rule', took: expect.stringMatching(/^\d+ ms$/) });

  const words = (start: string) => {
    const entry = one!.frames.find((frame) => frame.socket!.data!.startsWith(start));
    if (entry === undefined) throw new Error(`no frame starting ${start}`);
    return { ...page.frameContent(entry.socket!), by: page.frameOrigin(entry.socket!), misses: entry.socket!.nearMisses };
  };
  expect(words('{"type":"welcome"')).toEqual({ what: 'text · 18 bytes · JSON', text: '{\n  "type": "welcome"\n}', cut: undefined, by: { text: 'sent by onConnect', misses: [] }, misses: undefined });
  expect(words('{"type":"subscribe"')).toMatchObject({ what: 'text · 33 bytes · JSON', text: '{\n  "type": "subscribe",\n  "sku": "book"\n}', by: { text: 'answered by on[0]', misses: [] } });
  expect(words('{"type":"price"')).toMatchObject({ text: '{\n  "type": "price",\n  "price": 12\n}', by: { text: 'sent by on[0]' } });
  expect(words('xxx')).toEqual({
    what: 'text · 100 bytes',
    text: `${'x'.repeat(64)}…`,
    cut: 'cut: the journal kept the first 64 of 100 bytes (journal.maxBodyBytes)',
    by: { text: 'no rule matched', misses: ['on[0].match.json: the frame is not JSON'] },
    misses: ['on[0].match.json: the frame is not JSON'],
  });
  expect(words('AQID')).toMatchObject({ what: 'binary · 3 bytes', text: 'binary, 3 bytes (base64 AQID)', cut: undefined, by: { text: 'no rule matched', misses: ['on[0].match.json: the frame is not JSON'] } });
  expect(words('{"type":"pushed"')).toMatchObject({ what: 'text · 17 bytes · JSON', by: { text: 'pushed by the test' } });
  expect(page.closeText(one!.close!, one!.side)).toBe('closed 4002 “app is done” by the app');
  expect(page.closeText(two!.close!, two!.side)).toBe('closed 4003 “the test is done” by the test');
  // The page's own socket says "the page", not "the app".
  expect(page.closeText(one!.close!, 'browser')).toBe('closed 4002 “app is done” by the page');
});

test('hundreds of frames: the timeline shows the last 50 until "show all"; a connection whose open was dropped still groups', async () => {
  const harness = await app.client('feed');
  const key = newKey();
  await app.call(harness, 'open', { key, client: 'ws', url: FEED, protocols: ['feed.v1'] });
  await app.call(harness, 'send', { key, frames: Array.from({ length: 300 }, (_, n) => ({ text: `tick ${n}` })) });
  const journal = await journalUntil(harness, (entries) => entries.filter((entry) => entry.kind === 'socket.frame').length === 301);
  const [item] = socketsOf(page.journalItems(journal));
  expect(page.socketSummary(item!)).toMatchObject({ state: 'open', stateText: 'open', frames: '301 frames (300 →, 1 ←)', unmatched: '300 frames from the app matched no rule', took: 'open' });
  expect(page.FRAMES_SHOWN).toBe(50);
  const some = page.visibleFrames(item!.frames, false);
  expect(some.hidden).toBe(251);
  expect(some.shown.map((entry) => entry.socket!.data)).toEqual(Array.from({ length: 50 }, (_, n) => `tick ${n + 250}`));
  expect(page.visibleFrames(item!.frames, true)).toEqual({ hidden: 0, shown: item!.frames });

  // Older entries dropped (journal.maxEntries): the frames left are still one connection, with no open.
  const [late] = socketsOf(page.journalItems(journal.slice(100)));
  expect(late).toMatchObject({ connection: item!.connection, open: undefined });
  expect(late!.frames).toHaveLength(journal.length - 100);
  expect(page.socketSummary(late!)).toMatchObject({ state: 'open', by: 'by prices · scenario' });
});

test('a connection an error step dropped says so, and names the socket mock by its place', async () => {
  const harness = await app.client('dropped');
  const key = newKey();
  await app.call(harness, 'open', { key, client: 'ws', url: FEED });
  await app.call(harness, 'wait', { key, closed: true });
  const [item] = socketsOf(page.journalItems(await journalUntil(harness, (entries) => entries.some((entry) => entry.kind === 'socket.close'))));
  expect(page.socketSummary(item!)).toMatchObject({ state: 'dropped', stateText: 'dropped 1006', frames: '0 frames (0 →, 0 ←)', by: 'by dropped.sockets[0] · scenario', unmatched: undefined });
  expect(page.closeText(item!.close!, item!.side)).toBe('dropped 1006 by an error step of the socket mock (no close frame): the feed went away');
});

test('a journal of HTTP calls only is counted as before', async () => {
  const harness = await app.client('feed');
  await app.call(harness, 'fetch', { url: 'https://api.example.test/quote' });
  const items = page.journalItems(await harness.calls());
  expect(items).toMatchObject([{ type: 'call', index: 0 }]);
  expect(page.journalCount(items)).toBe('1 call');
});

test("the page never parses what it shows as HTML: journal data reaches the DOM as text only", () => {
  const html = readFileSync(new URL('../../src/inspector/inspector-page.html', import.meta.url), 'utf8');
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
  expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment|DOMParser/);
});
