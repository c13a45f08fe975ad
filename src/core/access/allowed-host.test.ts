import { expect, test } from 'vitest';
import { compileAllowedHosts } from './allowed-host.js';
import { hostOf } from './host-of.js';

const allows = (list: Parameters<typeof compileAllowedHosts>[0], host: string) => compileAllowedHosts(list)(hostOf(host)!);

test('loopback names and addresses and every IP address are allowed without configuration', () => {
  for (const host of ['localhost:3000', 'app.localhost', '127.0.0.1:9400', '127.8.9.10', '[::1]:3000', '10.0.0.5:3000', '[fd00::5]']) expect(allows([], host), host).toBe(true);
});

test('other names only when listed: exactly, with a port, under a wildcard or by RegExp; "*" allows any', () => {
  expect(allows([], 'evil.example')).toBe(false);
  expect(allows([], 'localhost.evil.example')).toBe(false);
  expect(allows(['harness'], 'harness:9400')).toBe(true);
  expect(allows(['harness:9400'], 'harness:9401')).toBe(false);
  expect(allows(['*.svc.cluster.local'], 'api.default.svc.cluster.local')).toBe(true);
  expect(allows([/^preview-\d+\.example\.com$/], 'preview-42.example.com')).toBe(true);
  expect(allows('*', 'evil.example')).toBe(true);
});
