/** ky v1, its instance created at import time (before the harness starts); it calls the global fetch. */
import ky from 'ky';
import { defineHttpClientSuite } from './http-client-suite.js';
import { jsonReply } from './json-reply.js';

// No retries: an unanswered call must fail once, at once (ky retries GETs by default).
const api = ky.create({ retry: 0, throwHttpErrors: false });

defineHttpClientSuite('ky', {
  async send(method, url, body) {
    const response = await api(url, { method, json: body });
    return { status: response.status, body: jsonReply(await response.text()) };
  },
});
