/**
 * Node's global fetch, two ways: looked up on every call (answered by the harness's fetch patch)
 * and a reference captured at import time, before the harness starts (answered through undici's
 * global dispatcher, which fetch consults on every call).
 */
import { defineHttpClientSuite } from './http-client-suite.js';
import { jsonReply, jsonRequest } from './json-reply.js';

// Module scope: evaluated before the suite starts the harness, as an SDK built at import time holds it.
const capturedFetch = globalThis.fetch;

defineHttpClientSuite('global fetch', {
  async send(method, url, body) {
    const response = await fetch(url, { method, ...jsonRequest(body) });
    return { status: response.status, body: jsonReply(await response.text()) };
  },
});

defineHttpClientSuite('fetch captured before harness.start()', {
  async send(method, url, body) {
    // Guard the premise: while the harness runs, the global is its patch and this reference is not.
    if (capturedFetch === globalThis.fetch) throw new Error('the captured fetch is the current global: the premise of this suite does not hold');
    const response = await capturedFetch(url, { method, ...jsonRequest(body) });
    return { status: response.status, body: jsonReply(await response.text()) };
  },
});
