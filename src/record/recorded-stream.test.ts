import { gzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { compileScenarios } from '../core/engine/compile-scenarios.js';
import type { MockResponse } from '../core/types.js';
import { replaceAcrossChunks } from './recorded-stream.js';
import type { RecordedExchange } from './recorded-exchange.js';
import { scenarioFromTraffic } from './scenario-from-traffic.js';

type Chunks = NonNullable<RecordedExchange['response']['chunks']>;

/** One recorded POST answered with these headers and chunks (the body is them joined, as the recorder keeps it). */
const exchange = (headers: Record<string, string>, chunks: Chunks): RecordedExchange => ({
  request: { method: 'POST', url: 'https://api.test/chat', headers: {}, body: '{}' },
  response: { status: 200, headers, body: Buffer.concat(chunks.map(({ body }) => Buffer.from(body))), chunks },
});

async function draft(exchanges: RecordedExchange[]) {
  const recorded = await scenarioFromTraffic(exchanges, { recordedAt: '2024-06-20T10:00:00Z' });
  expect(() => compileScenarios(recorded.scenarios)).not.toThrow();
  return { ...recorded, mocks: recorded.scenarios.default!.mocks };
}

const sse = { 'content-type': 'text/event-stream' };

test('replaceAcrossChunks finds a value split between chunks, keeps the count, and moves a boundary inside it to its end', () => {
  expect(replaceAcrossChunks(['ab', 'cSEC', 'RETd', 'e'], [['SECRET', '[x]']])).toEqual({ texts: ['ab', 'c[x]', 'd', 'e'], found: [0] });
  expect(replaceAcrossChunks(['SE', 'CR', 'ET!'], [['SECRET', '*']])).toEqual({ texts: ['*', '', '!'], found: [0] });
  expect(replaceAcrossChunks(['a-SECRET-', 'SECRET'], [['SECRET', 'R']])).toEqual({ texts: ['a-R-', 'R'], found: [0] });
  expect(replaceAcrossChunks(['nothing'], [['SECRET', 'R']])).toEqual({ texts: ['nothing'], found: [] });
});

test('an SSE answer with chunks becomes stream.chunks of { text, atMs } with timing recorded, cut where they came', async () => {
  const { mocks } = await draft([exchange(sse, [{ body: 'data: {"a":1}\n\ndata: {"a"', atMs: 0.5 }, { body: ':2}\n\n', atMs: 41.25 }])]);
  expect((mocks[0]!.response as MockResponse).stream).toEqual({
    timing: 'recorded',
    chunks: [
      { text: 'data: {"a":1}\n\ndata: {"a"', atMs: 0.5 },
      { text: ':2}\n\n', atMs: 41.25 },
    ],
  });
});

test('NDJSON too; a character cut between two chunks goes whole with the later one', async () => {
  const bytes = Buffer.from('{"t":"é"}\n');
  const cut = bytes.indexOf(0xa9);
  const { mocks } = await draft([
    exchange({ 'content-type': 'application/x-ndjson' }, [
      { body: bytes.subarray(0, cut), atMs: 0 },
      { body: bytes.subarray(cut), atMs: 12 },
    ]),
  ]);
  expect((mocks[0]!.response as MockResponse).stream?.chunks).toEqual([
    { text: '{"t":"', atMs: 0 },
    { text: 'é"}\n', atMs: 12 },
  ]);
});

test('without chunks (a HAR file), compressed, or of another type, an answer drafts as before', async () => {
  const har = await scenarioFromTraffic([{ request: { method: 'GET', url: 'https://api.test/s', headers: {} }, response: { status: 200, headers: sse, body: 'data: x\n\n' } }]);
  expect((har.scenarios.default!.mocks[0]!.response as MockResponse).stream).toEqual({ events: [{ data: 'x' }] });
  const zipped = gzipSync('data: x\n\n');
  const gz = await draft([{ ...exchange(sse, []), response: { status: 200, headers: { ...sse, 'content-encoding': 'gzip' }, body: zipped, chunks: [{ body: zipped, atMs: 3 }] } }]);
  expect((gz.mocks[0]!.response as MockResponse).stream).toEqual({ events: [{ data: 'x' }] });
  const json = await draft([exchange({ 'content-type': 'application/json' }, [{ body: '{"a":', atMs: 0 }, { body: '1}', atMs: 2 }])]);
  expect((json.mocks[0]!.response as MockResponse).body).toEqual({ a: 1 });
});

test('a secret-looking name in the events is redacted across chunks, short as its value is; the leak check reads the chunks joined', async () => {
  const { mocks, redactions } = await draft([exchange(sse, [{ body: 'data: {"password":"ab', atMs: 0 }, { body: 'c","n":1}\n\n', atMs: 5 }])]);
  expect((mocks[0]!.response as MockResponse).stream?.chunks).toEqual([
    { text: 'data: {"password":"[redacted]"', atMs: 0 },
    { text: ',"n":1}\n\n', atMs: 5 },
  ]);
  expect(redactions).toEqual([expect.objectContaining({ field: 'response.stream.chunks (event 0).password', action: 'replaced' })]);
});

test('repeated calls with the same chunks fold into one answer whatever their times; other chunks make a sequence', async () => {
  const call = (text: string, atMs: number) => exchange(sse, [{ body: `data: ${text}\n\n`, atMs }]);
  const same = await draft([call('a', 1), call('a', 9)]);
  expect((same.mocks[0]!.response as MockResponse).stream?.chunks).toEqual([{ text: 'data: a\n\n', atMs: 1 }]);
  const differ = await draft([call('a', 1), call('b', 9)]);
  expect(differ.mocks[0]!.sequence?.responses).toHaveLength(2);
});
