import { expect, test } from 'vitest';
import { hostOf } from './host-of.js';

test('reads a name, an IPv4 and a bracketed IPv6 with or without a port, in lower case and without a trailing dot', () => {
  expect(hostOf('Harness:9400')).toEqual({ hostname: 'harness', port: 9400 });
  expect(hostOf('App.Internal.')).toEqual({ hostname: 'app.internal', port: undefined });
  expect(hostOf('127.0.0.1:3000')).toEqual({ hostname: '127.0.0.1', port: 3000 });
  expect(hostOf('[::1]:3000')).toEqual({ hostname: '[::1]', port: 3000 });
});

test('anything but a name, an IPv4 or a bracketed IPv6 with a port is no host: userinfo, paths, spaces, a port out of range', () => {
  for (const header of ['evil.example@127.0.0.1', 'localhost/x', 'not a host', 'localhost:99999', '', 'a..b', '[::1', 'localhost, evil.example']) expect(hostOf(header), header).toBeUndefined();
});

test('names with characters the URL standard allows in a host but DNS names do not are no host either (a browser sends them: issue 37.4)', () => {
  for (const header of ['evil$.example', 'ev!l.example', 'evil=x.example', "ev'il.example", 'evil$.example:3000', 'ev(i)l.example', 'e~vil.example']) expect(hostOf(header), header).toBeUndefined();
});
