/** got v14, its instance extended at import time; it uses node:http/https. */
import got from 'got';
import { defineHttpClientSuite } from './http-client-suite.js';
import { jsonReply } from './json-reply.js';

// No retries: an unanswered call must fail once, at once.
const api = got.extend({ retry: { limit: 0 }, throwHttpErrors: false });

defineHttpClientSuite('got', {
  async send(method, url, body) {
    const response = await api(url, { method, json: body as Record<string, unknown> | undefined });
    return { status: response.statusCode, body: jsonReply(response.body) };
  },
});
