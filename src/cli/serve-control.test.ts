import { expect, test } from 'vitest';
import { UsageError } from './command.js';
import { serveControl } from './serve-control.js';

const input = { host: '127.0.0.1', allowedHosts: undefined, envAllowedHosts: undefined, allowCrossSite: false };

test('nothing given, nothing set: loopback and IP addresses only, as in an app', () => {
  for (const host of ['127.0.0.1', '0.0.0.0', '::', '10.0.0.5']) expect(serveControl({ ...input, host })).toBeUndefined();
});

test('--allowed-host and HARNESS_ALLOWED_HOSTS add names; a name given to --host is one too; * allows any', () => {
  expect(serveControl({ ...input, host: '0.0.0.0', allowedHosts: ['harness'], envAllowedHosts: 'mocks.internal, *.svc.cluster.local' })).toEqual({ allowedHosts: ['harness', 'mocks.internal', '*.svc.cluster.local'] });
  expect(serveControl({ ...input, host: 'mocks.internal' })).toEqual({ allowedHosts: ['mocks.internal'] });
  expect(serveControl({ ...input, allowedHosts: ['*', 'harness'] })).toEqual({ allowedHosts: '*' });
  expect(serveControl({ ...input, allowCrossSite: true })).toEqual({ allowCrossSite: true });
});

test('a URL instead of a name is a usage error', () => {
  expect(() => serveControl({ ...input, allowedHosts: ['http://harness:9400'] })).toThrow(UsageError);
  expect(() => serveControl({ ...input, envAllowedHosts: 'harness 9400' })).toThrow('Expected --allowed-host (or HARNESS_ALLOWED_HOSTS) to be a host name such as harness');
});
