import { expect, test } from 'vitest';
import { isConnectionReset } from './is-connection-reset.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

test.each([
  ['undici: fetch failed, caused by a closed socket', new TypeError('fetch failed', { cause: withCode('other side closed', 'UND_ERR_SOCKET') })],
  ['undici: fetch failed, caused by a reset', new TypeError('fetch failed', { cause: withCode('read ECONNRESET', 'ECONNRESET') })],
  ['node:http: socket hang up', withCode('socket hang up', 'ECONNRESET')],
  ['Playwright: the text only', new Error('apiRequestContext.fetch: socket hang up\nCall log: ...')],
  ['a write to a closed socket', withCode('write EPIPE', 'EPIPE')],
])('%s is a reset', (_, error) => {
  expect(isConnectionReset(error)).toBe(true);
});

test.each([
  ['a refused connection', new TypeError('fetch failed', { cause: withCode('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED') })],
  ['a timeout', withCode('Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT')],
  ['a DNS failure', withCode('getaddrinfo ENOTFOUND app.test', 'ENOTFOUND')],
  ['not an error', 'ECONNRESET as a string is not an error object'],
  ['nothing', undefined],
])('%s is not', (_, error) => {
  expect(isConnectionReset(error)).toBe(false);
});
