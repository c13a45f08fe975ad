/**
 * The undici package (v7): `request`, `fetch` and `stream`, each imported at module scope
 * before the harness starts. All three reach the harness through undici's global dispatcher.
 */
import { Writable } from 'node:stream';
import { fetch as undiciFetch, request, stream } from 'undici';
import { defineHttpClientSuite } from './http-client-suite.js';
import { jsonReply, jsonRequest } from './json-reply.js';

defineHttpClientSuite('undici.request', {
  async send(method, url, body) {
    const response = await request(url, { method, ...jsonRequest(body) });
    return { status: response.statusCode, body: jsonReply(await response.body.text()) };
  },
});

defineHttpClientSuite('undici.fetch', {
  async send(method, url, body) {
    const response = await undiciFetch(url, { method, ...jsonRequest(body) });
    return { status: response.status, body: jsonReply(await response.text()) };
  },
});

defineHttpClientSuite('undici.stream', {
  async send(method, url, body) {
    const chunks: Buffer[] = [];
    let status = 0;
    await stream(url, { method, ...jsonRequest(body) }, ({ statusCode }) => {
      status = statusCode;
      return new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(chunk), done()) });
    });
    return { status, body: jsonReply(Buffer.concat(chunks).toString()) };
  },
});
