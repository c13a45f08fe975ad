/**
 * Issue 41, item 3: the test's hand on its sockets over HTTP. `sendToSocket` (text, JSON, bytes)
 * and `closeSocket` reach only the calling test's open sockets of a URL (or a pattern); none open
 * fails naming those that are. The raw `POST /__harness__/sockets` refuses bad bodies naming the
 * field, is guarded by `access` and bounded by `limits.maxBodyBytes`; own socket mocks go through
 * the own-mocks endpoint (`sockets`), which validates, lists and removes them.
 */
import { TEST_ID_HEADER } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { journalUntil, newKey, refusedHandshakeClose, startSocketApp } from './socket-app.js';

const TOKEN = 'socket-test-token';
const scenarios = {
  default: { name: 'Default', mocks: [] },
  live: {
    name: 'Two live feeds',
    mocks: [],
    sockets: [
      { id: 'prices', url: 'wss://feeds.example.com/prices/:sku', onConnect: [{ send: 'subscribed {{params.sku}}' }] },
      { id: 'news', url: 'wss://feeds.example.com/news' },
    ],
  },
};

let app: Awaited<ReturnType<typeof startSocketApp<typeof scenarios>>>;
beforeAll(async () => {
  app = await startSocketApp(scenarios, { access: { token: TOKEN }, limits: { maxBodyBytes: 1024 } });
});
afterAll(() => app.stop());

/** Open the app's sockets for one test: a price feed per sku, and the news. */
async function openFeeds(skus: string[]) {
  const harness = await app.client('live');
  const keys: Record<string, string> = {};
  for (const [i, sku] of skus.entries()) {
    keys[sku] = newKey();
    await app.call(harness, 'open', { key: keys[sku], client: (['ws', 'global', 'undici'] as const)[i % 3], url: `wss://feeds.example.com/prices/${sku}` });
  }
  keys.news = newKey();
  await app.call(harness, 'open', { key: keys.news, client: 'ws', url: 'wss://feeds.example.com/news' });
  return { harness, keys };
}

const texts = (got: ({ text: string } | { binary: string })[]) => got.map((frame) => ('text' in frame ? frame.text : `bytes ${frame.binary}`));

test("sendToSocket pushes text, JSON and bytes to the test's sockets of one URL only, and a pattern reaches several", async () => {
  const { harness, keys } = await openFeeds(['book', 'pen']);
  const other = await openFeeds(['book']);
  expect(await harness.sendToSocket('wss://feeds.example.com/prices/book', 'plain text')).toBe(1);
  expect(await harness.sendToSocket('wss://feeds.example.com/prices/book', { json: { price: 12.5 } })).toBe(1);
  expect(await harness.sendToSocket('wss://feeds.example.com/prices/book', { base64: 'AAEC' })).toBe(1);
  expect(await harness.sendToSocket('wss://feeds.example.com/prices/*', 'to every price feed')).toBe(2);
  expect(texts((await app.call(harness, 'wait', { key: keys.book, count: 5 })).got)).toEqual(['subscribed book', 'plain text', '{"price":12.5}', 'bytes AAEC', 'to every price feed']);
  expect(texts((await app.call(harness, 'wait', { key: keys.pen, count: 2 })).got)).toEqual(['subscribed pen', 'to every price feed']);
  expect((await app.call(harness, 'wait', { key: keys.news, count: 0 })).got).toEqual([]);
  // The other test's socket on the same URL got none of it.
  expect(texts((await app.call(other.harness, 'wait', { key: other.keys.book, count: 1 })).got)).toEqual(['subscribed book']);
  const pushed = (await journalUntil(harness, (all) => all.filter((entry) => entry.socket?.rule === 'test').length === 5)).filter((entry) => entry.socket?.rule === 'test');
  expect(pushed.map((entry) => [entry.url, entry.socket?.direction, entry.socket?.opcode])).toContainEqual(['wss://feeds.example.com/prices/book', 'received', 'binary']);
});

test("closeSocket closes the test's sockets of a URL with its code and reason; none open names the ones that are", async () => {
  const { harness, keys } = await openFeeds(['book']);
  const other = await openFeeds(['book']);
  expect(await harness.closeSocket('wss://feeds.example.com/prices/book', 4003, 'market closed')).toBe(1);
  expect((await app.call(harness, 'wait', { key: keys.book, closed: true })).closed).toEqual({ code: 4003, reason: 'market closed' });
  const close = (await journalUntil(harness, (all) => all.some((entry) => entry.kind === 'socket.close'))).find((entry) => entry.kind === 'socket.close');
  expect(close?.socket).toMatchObject({ code: 4003, reason: 'market closed', closedBy: 'test' });
  expect((await app.call(other.harness, 'wait', { key: other.keys.book, count: 1 })).closed).toBeUndefined();
  // A pattern closes every socket of the test it matches, and only those.
  const more = await openFeeds(['pen', 'ink']);
  expect(await more.harness.closeSocket('wss://feeds.example.com/prices/*', 4004)).toBe(2);
  for (const sku of ['pen', 'ink']) expect((await app.call(more.harness, 'wait', { key: more.keys[sku], closed: true })).closed?.code).toBe(4004);
  expect((await app.call(more.harness, 'wait', { key: more.keys.news, count: 0 })).closed).toBeUndefined();
  // Closed now: the URL has none open, and the message lists what is.
  await expect(harness.sendToSocket('wss://feeds.example.com/prices/book', 'late')).rejects.toThrow(
    `No open socket of test "${harness.testId}" matches wss://feeds.example.com/prices/book; it has these open: wss://feeds.example.com/news`,
  );
  await harness.closeSocket('wss://feeds.example.com/news');
  await app.call(harness, 'wait', { key: keys.news, closed: true });
  await expect(harness.closeSocket('wss://feeds.example.com/news')).rejects.toThrow(/it has none open \(a socket counts from its handshake/);
});

/** A raw request to a control endpoint, as the test's client would make it (or without the token). */
async function control(method: string, path: string, testId: string, body?: unknown, { token = TOKEN }: { token?: string | null } = {}) {
  const headers: Record<string, string> = { [TEST_ID_HEADER]: testId, 'content-type': 'application/json', ...(token === null ? {} : { authorization: `Bearer ${token}` }) };
  const response = await fetch(`${app.origin}${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as { error?: string; [key: string]: unknown } };
}

test('POST /__harness__/sockets: bad bodies are 400s naming the field', async () => {
  const { harness } = await openFeeds(['book']);
  const cases: [unknown, RegExp][] = [
    [{ action: 'send', data: 'x' }, /^Invalid request body: url: expected the socket URL/],
    [{ url: 'wss://feeds.example.com/news', action: 'push', data: 'x' }, /^Invalid request body: action: expected 'send' or 'close'/],
    [{ url: 'wss://feeds.example.com/news', action: 'send' }, /^Invalid request body: data: a 'send' needs the frame/],
    [{ url: 'wss://feeds.example.com/news', action: 'send', data: { base64: 'not base64!' } }, /^Invalid request body: data.base64: expected a base64 string/],
    [{ url: 'wss://feeds.example.com/news', action: 'close', code: 1006 }, /^Invalid request body: code: expected a close code an endpoint may send/],
    [{ url: 'wss://feeds.example.com/news', action: 'close', reason: 'r'.repeat(124) }, /^Invalid request body: reason: /],
    [{ url: 'wss://feeds.example.com/news', action: 'close', extra: 1 }, /^Invalid request body: body: .*"extra"/],
  ];
  for (const [body, error] of cases) {
    const answer = await control('POST', '/__harness__/sockets', harness.testId, body);
    expect([answer.status, answer.body.error], JSON.stringify(body)).toEqual([400, expect.stringMatching(error)]);
  }
  // A good body, raw: the count of sockets it reached.
  expect(await control('POST', '/__harness__/sockets', harness.testId, { url: 'wss://feeds.example.com/news', action: 'send', data: { json: { ok: true } } })).toEqual({ status: 200, body: { testId: harness.testId, sockets: 1 } });
});

test('POST /__harness__/sockets is guarded by access and bounded by limits.maxBodyBytes', async () => {
  const { harness, keys } = await openFeeds(['book']);
  const refused = await control('POST', '/__harness__/sockets', harness.testId, { url: 'wss://feeds.example.com/news', action: 'send', data: 'sneaky' }, { token: null });
  expect(refused.status).toBe(401);
  const wrong = await control('POST', '/__harness__/sockets', harness.testId, { url: 'wss://feeds.example.com/news', action: 'send', data: 'sneaky' }, { token: 'not-it' });
  expect([401, 403]).toContain(wrong.status);
  const big = await control('POST', '/__harness__/sockets', harness.testId, { url: 'wss://feeds.example.com/news', action: 'send', data: 'x'.repeat(2000) });
  expect(big).toMatchObject({ status: 413, body: { error: 'Request body too large' } });
  // Nothing of it reached the socket.
  await harness.sendToSocket('wss://feeds.example.com/news', 'the real one');
  expect(texts((await app.call(harness, 'wait', { key: keys.news, count: 1 })).got)).toEqual(['the real one']);
});

test('own socket mocks through POST /__harness__/mocks: a bad one is a 400 naming sockets[0]…, GET lists them, DELETE removes them', async () => {
  const harness = await app.client('live');
  const bad = await control('POST', '/__harness__/mocks', harness.testId, { sockets: [{ url: 'wss://own.example.com/a', on: [{ match: { text: 7 }, steps: [] }] }] });
  expect(bad.status).toBe(400);
  expect(bad.body.error).toMatch(/sockets\[0\]\.on\[0\]\.match/);
  const badStep = await control('POST', '/__harness__/mocks', harness.testId, { sockets: [{ url: 'wss://own.example.com/a', onConnect: [{ send: 'x', delay: 1 }] }] });
  expect([badStep.status, badStep.body.error]).toEqual([400, expect.stringMatching(/sockets\[0\]\.onConnect\[0\]/)]);
  expect(await control('GET', '/__harness__/mocks', harness.testId)).toEqual({ status: 200, body: { testId: harness.testId, mocks: [] } });

  const own = { id: 'own-a', url: 'wss://own.example.com/a', onConnect: [{ send: 'own socket' }] };
  expect(await control('POST', '/__harness__/mocks', harness.testId, { sockets: [own] })).toEqual({ status: 200, body: { testId: harness.testId, mocks: 0, sockets: 1 } });
  expect((await control('GET', '/__harness__/mocks', harness.testId)).body).toMatchObject({ sockets: [own] });
  const key = newKey();
  await app.call(harness, 'open', { key, client: 'global', url: 'wss://own.example.com/a' });
  expect((await app.call(harness, 'wait', { key, count: 1 })).got).toEqual([{ text: 'own socket' }]);

  expect(await control('DELETE', '/__harness__/mocks', harness.testId)).toEqual({ status: 200, body: { testId: harness.testId, mocks: 0 } });
  expect((await control('GET', '/__harness__/mocks', harness.testId)).body).toEqual({ testId: harness.testId, mocks: [] });
  // Gone: a new socket on that URL has no mock (unhandled: 'error' fails it).
  const after = await app.call(harness, 'open', { key: newKey(), client: 'global', url: 'wss://own.example.com/a' });
  expect(after.error).toBeDefined();
  expect(after.closed?.code).toBe(refusedHandshakeClose('global'));
});
