/** superagent, on node:http/https, answered by the node:http interception. */
import superagent from 'superagent';
import { defineHttpClientSuite } from './http-client-suite.js';

defineHttpClientSuite('superagent', {
  async send(method, url, body) {
    // ok(): an HTTP error status is a reply the app reads, not a throw.
    const pending = superagent(method, url).ok(() => true);
    const response = await (body === undefined ? pending : pending.send(body as object));
    return { status: response.status, body: response.body as unknown };
  },
});
