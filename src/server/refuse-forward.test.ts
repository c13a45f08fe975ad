import { expect, test } from 'vitest';
import { refuseForward, type ForwardRules } from './refuse-forward.js';

const rules: ForwardRules = { upstreams: new Set(['http://127.0.0.1:5000', 'https://api.stripe.com', 'http://localhost:9401']), ownPorts: [9400, 9401] };

test('a call no mock answers is forwarded to a configured upstream, loopback ones included', async () => {
  expect(await refuseForward(new URL('http://127.0.0.1:5000/x'), rules, 'unanswered')).toBeUndefined();
  expect(await refuseForward(new URL('https://api.stripe.com/v1/charges'), rules, 'unanswered')).toBeUndefined();
  // The URL parser writes 127.1 and 2130706433 as 127.0.0.1: the same upstream.
  expect(await refuseForward(new URL('http://127.1:5000/x'), rules, 'unanswered')).toBeUndefined();
  expect(await refuseForward(new URL('http://2130706433:5000/x'), rules, 'unanswered')).toBeUndefined();
});

test.each(['http://127.0.0.1:5001/x', 'http://0x7f000001:6379/x', 'http://localhost:5000/x', 'http://[::1]:5000/x', 'https://api.github.com/x'])('%s is not a configured upstream: refused, naming the flag that would allow it', async (href) => {
  const url = new URL(href);
  expect(await refuseForward(url, rules, 'unanswered')).toEqual({ reason: `${url.origin} is not one of its upstreams`, remedy: `serve it with --upstream ${url.origin}=0 to forward such calls there` });
});

test('an upstream that is the server itself is refused even though it is configured', async () => {
  expect((await refuseForward(new URL('http://localhost:9401/loop'), rules, 'unanswered'))?.reason).toBe('localhost:9401 is this server itself');
});

test("a recording test's calls go anywhere off this machine, never to it", async () => {
  expect(await refuseForward(new URL('https://203.0.113.7/v1'), rules, 'recording')).toBeUndefined();
  expect((await refuseForward(new URL('http://0.0.0.0:5000/admin'), rules, 'recording'))?.reason).toBe('0.0.0.0:5000 is an address of this machine, which a recording never calls');
  expect((await refuseForward(new URL('http://[::ffff:127.0.0.1]:9400/x'), rules, 'recording'))?.reason).toBe('[::ffff:7f00:1]:9400 is this server itself');
});
