/**
 * Responses beyond JSON and text: binary bodies and streamed bodies (chunks, Server-Sent
 * Events, a failure part way), through every interception layer.
 */
import axios from 'axios';
import { request } from 'undici';
import { expect, test } from 'vitest';
import { startHarness } from '../engine/with-harness.js';

// Captured before start(): reaches the harness through undici's global dispatcher, not the fetch patch.
const capturedFetch = globalThis.fetch;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x10]);

const scenarios = {
  default: {
    name: 'Default',
    mocks: [
      { url: 'https://cdn.x.test/logo.png', response: { headers: { 'content-type': 'image/png' }, bodyBase64: PNG.toString('base64') } },
      { url: 'https://cdn.x.test/blob', response: { bodyBase64: PNG.toString('base64') } },
      {
        method: 'POST' as const,
        url: 'https://llm.x.test/v1/chat',
        response: {
          stream: {
            events: [
              { data: { delta: 'Hel' } },
              { event: 'message', id: '2', data: { delta: 'lo {{body.name}}' } },
              { data: '[DONE]' },
            ],
          },
        },
      },
      { url: 'https://dl.x.test/file', response: { stream: { chunks: ['part1,', 'part2,', 'part3'], intervalMs: 5 } } },
      { url: 'https://dl.x.test/ndjson', response: { stream: { chunks: [{ n: 1 }, { n: 2 }] } } },
      { url: 'https://dl.x.test/broken', response: { stream: { chunks: ['a', 'b', 'c'], failAfter: 2 } } },
    ],
  },
};

const SSE = 'data: {"delta":"Hel"}\n\nevent: message\nid: 2\ndata: {"delta":"lo Ada"}\n\ndata: [DONE]\n\n';

test('bodyBase64 answers bytes, byte for byte, to fetch, a captured fetch, undici and axios', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    for (const get of [fetch, capturedFetch]) {
      const response = await get('https://cdn.x.test/logo.png');
      expect([response.headers.get('content-type'), Buffer.from(await response.arrayBuffer())]).toEqual(['image/png', PNG]);
    }
    const viaUndici = await request('https://cdn.x.test/blob');
    expect([viaUndici.headers['content-type'], Buffer.from(await viaUndici.body.arrayBuffer())]).toEqual(['application/octet-stream', PNG]);
    const viaAxios = await axios.get('https://cdn.x.test/logo.png', { responseType: 'arraybuffer' });
    expect(Buffer.from(viaAxios.data)).toEqual(PNG);
  });
});

test('a stream of events is sent as Server-Sent Events, chunk by chunk, with templates filled in', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    for (const post of [fetch, capturedFetch]) {
      const response = await post('https://llm.x.test/v1/chat', { method: 'POST', body: JSON.stringify({ name: 'Ada' }), headers: { 'content-type': 'application/json' } });
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const reader = response.body!.getReader();
      const chunks: string[] = [];
      for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(Buffer.from(next.value).toString());
      expect(chunks.join('')).toBe(SSE);
    }
    const viaAxios = await axios.post('https://llm.x.test/v1/chat', { name: 'Ada' }, { responseType: 'text' });
    expect(viaAxios.data).toBe(SSE);
  });
});

test('chunks arrive one by one (strings as they are, other values as JSON lines)', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    const response = await fetch('https://dl.x.test/file');
    const reader = response.body!.getReader();
    const seen: string[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) seen.push(Buffer.from(next.value).toString());
    expect(seen).toEqual(['part1,', 'part2,', 'part3']);
    expect(await (await capturedFetch('https://dl.x.test/ndjson')).text()).toBe('{"n":1}\n{"n":2}\n');
    expect((await request('https://dl.x.test/file')).headers['content-type']).toBe('text/plain; charset=utf-8');
  });
});

test('failAfter drops the body part way: the client sees the chunks before it, then an error', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    for (const get of [fetch, capturedFetch]) {
      const response = await get('https://dl.x.test/broken');
      const reader = response.body!.getReader();
      const seen: string[] = [];
      const error = await (async () => {
        for (let next = await reader.read(); !next.done; next = await reader.read()) seen.push(Buffer.from(next.value).toString());
      })().then(() => undefined, (e: unknown) => e);
      expect(seen).toEqual(['a', 'b']);
      expect(error).toBeInstanceOf(Error);
    }
    const viaUndici = await request('https://dl.x.test/broken');
    await expect(viaUndici.body.text()).rejects.toThrow(/cut off/);
    await expect(axios.get('https://dl.x.test/broken', { responseType: 'text' })).rejects.toThrow();
  });
});

test('a definition with two bodies, a bad base64 string or an empty stream is refused with the field named', async () => {
  const { createHarness } = await import('scenario-harness');
  const make = (response: object) => () => createHarness({ enabled: true, scenarios: { default: { name: 'D', mocks: [{ url: '/x', response }] } } });
  expect(make({ body: 'a', bodyBase64: 'YQ==' })).toThrow(/response\.bodyBase64.*cannot be combined with "body"/);
  expect(make({ bodyBase64: 'not base64!' })).toThrow(/response\.bodyBase64.*base64/);
  expect(make({ stream: { chunks: [] } })).toThrow(/response\.stream\.chunks.*at least one chunk/);
  expect(make({ stream: { chunks: ['a'], events: [{ data: 1 }] } })).toThrow(/response\.stream.*exactly one of "chunks" and "events"/);
  expect(make({ status: 204, stream: { chunks: ['a'] } })).toThrow(/response\.stream.*status 204 has no body/);
});
