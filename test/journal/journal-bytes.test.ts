/**
 * What the journal keeps is bounded in bytes: each entry by `journal.maxEntryBytes` (its kept
 * size, not its size on the wire), all journals of a store together by `journal.maxTotalBytes`.
 * Matching still sees the whole body.
 * @see issue 23, item 3 ("Journal memory unbounded by bytes")
 */
import { randomUUID } from 'node:crypto';
import { createMemoryStore, isHarnessError, type Harness } from 'scenario-harness';
import { afterEach, expect, test } from 'vitest';
import { startHandlerApp, type App } from '../hardening/apps.js';
import { startHarness } from '../engine/with-harness.js';

const API = 'https://api.bulk.test';
const scenarios = {
  default: {
    name: 'Default',
    mocks: [
      { id: 'bulk', method: 'POST' as const, url: `${API}/bulk`, match: { body: { kind: 'bulk' } }, response: { status: 201, body: { ok: true } } },
      { id: 'any', method: 'POST' as const, url: `${API}/any`, response: { status: 200, body: { ok: true } } },
    ],
  },
};

/** 8 KB of `[[],[],…]`: 8 KB on the wire, 109 KiB parsed (2,730 arrays). */
const NESTED = `[${Array.from({ length: 2730 }, () => '[]').join(',')}]`;

let app: App | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** An app whose every request makes one outgoing call: its body, content type and `x-forward` header, sent on to `API` + its path. */
async function startForwardingApp(harness: Harness): Promise<App> {
  app = await startHandlerApp(harness, async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = { 'content-type': req.headers['content-type'] ?? 'application/json' };
    if (typeof req.headers['x-forward'] === 'string') headers['x-forward'] = req.headers['x-forward'];
    const upstream = await fetch(`${API}${req.url}`, { method: 'POST', headers, body: Buffer.concat(chunks) });
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
  });
  return app;
}

const send = (port: number, path: string, testId: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { 'x-harness-test-id': testId, 'content-type': 'application/json', ...headers }, body });

test('an 8 KB body whose parsed form is ten times its size is kept as its text, within maxEntryBytes, and mocks still match on it', async () => {
  const store = createMemoryStore();
  const { harness } = await startHarness(scenarios, { store });
  const { port } = await startForwardingApp(harness);
  const testId = randomUUID();
  // Just under maxBodyBytes (8 KiB), so nothing is cut for its length.
  const body = JSON.stringify({ kind: 'bulk', items: Array.from({ length: 2700 }, () => []) });
  const response = await send(port, '/bulk', testId, body);
  expect([response.status, await response.json()]).toEqual([201, { ok: true }]);
  const [entry] = await harness.getCalls(testId);
  expect(entry).toMatchObject({ answered: true, mockId: 'bulk', requestBodyTruncated: true });
  expect(entry!.requestBody === body).toBe(true);
  // The store's accounting of what the journals keep: one entry, under the default 32 KiB.
  expect(store.journalBytes).toBeGreaterThan(body.length);
  expect(store.journalBytes).toBeLessThanOrEqual(32 * 1024);
});

test('a body whose parsed form fits is kept parsed, as before', async () => {
  const { harness } = await startHarness(scenarios);
  const { port } = await startForwardingApp(harness);
  const testId = randomUUID();
  await send(port, '/bulk', testId, JSON.stringify({ kind: 'bulk', items: [{ sku: 'a', qty: 1 }] }));
  const [entry] = await harness.getCalls(testId);
  expect(entry!.requestBody).toEqual({ kind: 'bulk', items: [{ sku: 'a', qty: 1 }] });
  expect(entry!.requestBodyTruncated).toBeUndefined();
});

test('maxEntryBytes cuts what one entry keeps: the text of a body and over-long header values', async () => {
  const store = createMemoryStore();
  const { harness } = await startHarness(scenarios, { store, journal: { maxEntryBytes: 4096 } });
  const { port } = await startForwardingApp(harness);
  const testId = randomUUID();
  await send(port, '/any', testId, 'x'.repeat(8000), { 'x-forward': 'y'.repeat(6000) });
  const [entry] = await harness.getCalls(testId);
  expect(entry!.requestHeaders['x-forward']).toBe(`${'y'.repeat(256)}...`);
  expect(entry!.requestBodyTruncated).toBe(true);
  expect((entry!.requestBody as string).length).toBeGreaterThan(1000);
  expect('x'.repeat(8000).startsWith(entry!.requestBody as string)).toBe(true);
  expect(store.journalBytes).toBeLessThanOrEqual(4096);
});

test('maxTotalBytes bounds every journal together: the least recently used tests lose their oldest entries first, said once', async () => {
  const store = createMemoryStore();
  const maxTotalBytes = 64 * 1024;
  const { harness, logs } = await startHarness(scenarios, { store, journal: { maxTotalBytes } });
  const { port } = await startForwardingApp(harness);
  const testIds = Array.from({ length: 20 }, () => randomUUID());
  // 20 tests × 2 calls of about 8.5 KiB kept each: 340 KiB without the bound.
  for (const testId of testIds) for (let n = 0; n < 2; n++) await send(port, '/any', testId, NESTED);
  expect(store.journalBytes).toBeLessThanOrEqual(maxTotalBytes);
  const kept = await Promise.all(testIds.map(async (testId) => (await harness.getCalls(testId)).length));
  expect(kept[0]).toBe(0);
  expect(kept.at(-1)).toBe(2);
  // Oldest first: no test keeps entries while one that called after it lost some.
  expect([...kept].sort((a, b) => a - b)).toEqual(kept);
  expect(logs.filter((line) => line.includes('journal.maxTotalBytes'))).toHaveLength(1);
  // Ending a test gives its bytes back.
  const before = store.journalBytes;
  await harness.endTest(testIds.at(-1)!);
  expect(store.journalBytes).toBeLessThan(before);
});

test.each([
  [{ maxEntryBytes: 100 }, /journal.maxEntryBytes" to be at least 1024/],
  [{ maxTotalBytes: 2048, maxEntryBytes: 4096 }, /journal.maxTotalBytes" \(2048\) to be at least journal.maxEntryBytes \(4096\)/],
  [{ maxEntryByte: 4096 }, /"journal.maxEntryByte" is not a journal option \(did you mean "maxEntryBytes"\?\)/],
  [{ maxTotalBytes: -1 }, /journal.maxTotalBytes" to be a positive whole number/],
])('journal options %o are refused with a message naming the problem', async (journal, message) => {
  const error = await startHarness(scenarios, { journal: journal as never }).catch((caught: unknown) => caught);
  expect(isHarnessError(error) && error.code).toBe('INVALID_OPTIONS');
  expect((error as Error).message).toMatch(message);
});
