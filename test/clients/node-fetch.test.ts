/** node-fetch v3: its own fetch on node:http/https, answered by the node:http interception. */
import nodeFetch from 'node-fetch';
import { defineHttpClientSuite } from './http-client-suite.js';
import { jsonReply, jsonRequest } from './json-reply.js';

defineHttpClientSuite('node-fetch', {
  async send(method, url, body) {
    const response = await nodeFetch(url, { method, ...jsonRequest(body) });
    return { status: response.status, body: jsonReply(await response.text()) };
  },
});
