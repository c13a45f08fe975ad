import { expect, test } from 'vitest';
import { UsageError } from './command.js';
import { serveAccess } from './serve-access.js';

const TOKEN = '9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const input = { host: '127.0.0.1', token: undefined, envToken: undefined, insecureNoToken: false };

test('on loopback no token is needed; given one, it is required', () => {
  for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) expect(serveAccess({ ...input, host })).toBeUndefined();
  expect(serveAccess({ ...input, token: TOKEN })).toEqual({ token: TOKEN });
  expect(serveAccess({ ...input, envToken: TOKEN })).toEqual({ token: TOKEN });
});

test('beyond loopback a token is required, from --token or HARNESS_TOKEN (the flag wins)', () => {
  for (const host of ['0.0.0.0', '::', '192.168.1.20', 'mocks.internal']) {
    expect(() => serveAccess({ ...input, host })).toThrow(UsageError);
    expect(() => serveAccess({ ...input, host })).toThrow(`Refusing to listen on ${host} without a token: beyond this machine, anyone who can reach it could switch any test's scenario, read test state, and read the journal and recordings`);
    expect(serveAccess({ ...input, host, token: TOKEN })).toEqual({ token: TOKEN });
    expect(serveAccess({ ...input, host, envToken: TOKEN })).toEqual({ token: TOKEN });
  }
  expect(serveAccess({ ...input, host: '0.0.0.0', token: TOKEN, envToken: 'another-token-0123456789' })).toEqual({ token: TOKEN });
  // An empty variable is no token.
  expect(() => serveAccess({ ...input, host: '0.0.0.0', envToken: '' })).toThrow(/^Refusing to listen on 0\.0\.0\.0 without a token/);
});

test('--insecure-no-token allows an exposed server without a token, and contradicts one', () => {
  expect(serveAccess({ ...input, host: '0.0.0.0', insecureNoToken: true })).toBeUndefined();
  expect(() => serveAccess({ ...input, host: '0.0.0.0', insecureNoToken: true, token: TOKEN })).toThrow('--insecure-no-token contradicts the token given by --token: drop one of them.');
  expect(() => serveAccess({ ...input, host: '0.0.0.0', insecureNoToken: true, envToken: TOKEN })).toThrow('--insecure-no-token contradicts the token given by HARNESS_TOKEN: drop one of them.');
});

test('a token that cannot be used is a usage error saying why, without showing it', () => {
  expect(() => serveAccess({ ...input, token: 'short' })).toThrow('The token from --token cannot be used: it has 5 characters, and a token shorter than 16 can be guessed');
  expect(() => serveAccess({ ...input, envToken: 'has spaces in it, 1234' })).toThrow(/^The token from HARNESS_TOKEN cannot be used: it has characters a bearer token cannot carry/);
});
