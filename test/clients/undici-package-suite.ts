import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { startHarness } from '../engine/with-harness.js';
import { defineHttpClientSuite } from './http-client-suite.js';
import { jsonReply, jsonRequest } from './json-reply.js';

/** What the suite uses of one major of the undici package (each major is installed under an npm alias). */
export interface UndiciPackage {
  request(url: string, options?: object): Promise<{ statusCode: number; headers: Record<string, string | string[] | undefined>; body: { text(): Promise<string>; arrayBuffer(): Promise<ArrayBuffer> } }>;
  fetch(url: string, init?: object): Promise<Response>;
  stream(url: string, options: object, factory: (data: { statusCode: number }) => Writable): Promise<unknown>;
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x10]);
const SSE = 'data: {"delta":"Hel"}\n\ndata: {"delta":"lo Ada"}\n\n';

const bodies = {
  default: {
    name: 'Bodies',
    mocks: [
      { url: 'https://cdn.x.test/logo.png', response: { headers: { 'content-type': 'image/png' }, bodyBase64: PNG.toString('base64') } },
      { method: 'POST' as const, url: 'https://llm.x.test/v1/chat', response: { stream: { events: [{ data: { delta: 'Hel' } }, { data: { delta: 'lo {{body.name}}' } }] } } },
      { url: 'https://dl.x.test/broken', response: { stream: { chunks: ['a', 'b', 'c'], failAfter: 2 } } },
      { url: 'https://api.x.test/malformed', response: { body: { a: 'long enough to be cut in half' }, error: 'malformed' as const } },
      { url: 'https://api.x.test/reset', response: { error: 'reset' as const } },
    ],
  },
};

/**
 * One major of the undici package, as an app imports it at module scope before the harness
 * starts: `request`, `fetch` and `stream` through the shared client suite (isolation,
 * sequences, body matching and templates, setState, unhandled calls), then binary bodies,
 * Server-Sent Events, a stream cut part way and connection faults.
 */
export function defineUndiciPackageSuite(label: string, load: () => Promise<unknown>): void {
  let undici: UndiciPackage;
  // Loaded before any harness starts, as an app's import would be. Each major's typings differ
  // (its own Response and stream types); the suite uses only what they all have.
  const loaded = load().then((module) => (undici = module as UndiciPackage));

  defineHttpClientSuite(`${label} request`, {
    async send(method, url, body) {
      const response = await (await loaded).request(url, { method, ...jsonRequest(body) });
      return { status: response.statusCode, body: jsonReply(await response.body.text()) };
    },
  });

  defineHttpClientSuite(`${label} fetch`, {
    async send(method, url, body) {
      const response = await (await loaded).fetch(url, { method, ...jsonRequest(body) });
      return { status: response.status, body: jsonReply(await response.text()) };
    },
  });

  defineHttpClientSuite(`${label} stream`, {
    async send(method, url, body) {
      const chunks: Buffer[] = [];
      let status = 0;
      await (await loaded).stream(url, { method, ...jsonRequest(body) }, ({ statusCode }) => {
        status = statusCode;
        return new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(chunk), done()) });
      });
      return { status, body: jsonReply(Buffer.concat(chunks).toString()) };
    },
  });

  describe(`${label}: bodies and faults`, () => {
    test('bodyBase64 arrives byte for byte with its content type, through request and fetch', async () => {
      await loaded;
      const { asTest } = await startHarness(bodies);
      await asTest(undefined, async () => {
        const viaRequest = await undici.request('https://cdn.x.test/logo.png');
        expect([viaRequest.headers['content-type'], Buffer.from(await viaRequest.body.arrayBuffer())]).toEqual(['image/png', PNG]);
        const viaFetch = await undici.fetch('https://cdn.x.test/logo.png');
        expect([viaFetch.headers.get('content-type'), Buffer.from(await viaFetch.arrayBuffer())]).toEqual(['image/png', PNG]);
      });
    });

    test('Server-Sent Events arrive as a stream with their content type and templates filled in', async () => {
      await loaded;
      const { asTest } = await startHarness(bodies);
      await asTest(undefined, async () => {
        const response = await undici.fetch('https://llm.x.test/v1/chat', { method: 'POST', body: JSON.stringify({ name: 'Ada' }), headers: { 'content-type': 'application/json' } });
        expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
        const chunks: string[] = [];
        const reader = response.body!.getReader();
        for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(Buffer.from(next.value).toString());
        expect(chunks.join('')).toBe(SSE);
        expect(chunks.length).toBeGreaterThan(1);
      });
    });

    test('a stream cut part way, a malformed body and a reset fail the caller', async () => {
      await loaded;
      const { asTest } = await startHarness(bodies);
      await asTest(undefined, async () => {
        const broken = await undici.fetch('https://dl.x.test/broken');
        await expect(broken.text()).rejects.toThrow();
        const malformed = await undici.request('https://api.x.test/malformed');
        expect([malformed.statusCode, malformed.headers['content-type']]).toEqual([200, 'application/json']);
        await expect(malformed.body.text()).rejects.toThrow();
        await expect(undici.request('https://api.x.test/reset')).rejects.toThrow(/reset|socket|closed/i);
      });
    });
  });
}
