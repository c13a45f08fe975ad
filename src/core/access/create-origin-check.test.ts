import { expect, test } from 'vitest';
import { controlCallFromRequest } from '../control/control-call.js';
import { createOriginCheck } from './create-origin-check.js';

const quiet = { warn: () => {}, error: () => {} };
/** A journal read addressed to `host` (`null`: no Host header, as a Request built in process). */
const read = (host: string | null) => controlCallFromRequest(new Request('http://127.0.0.1:3000/__harness__/journal', { headers: host === null ? {} : { host } }));
const statusFor = (check: ReturnType<typeof createOriginCheck>, host: string | null) => check(read(host))?.status ?? 200;
const ODD_NAMES = ['evil$.example', 'ev!l.example', 'evil=x.example', "ev'il.example", 'evil$.example:3000', 'localhost, evil.example'];

test('a Host that is no host name is refused with 403, as a name that is not allowed is', () => {
  const check = createOriginCheck(undefined, { accessSet: false, logger: quiet });
  for (const host of [...ODD_NAMES, 'evil.example']) expect(statusFor(check, host), host).toBe(403);
  expect(JSON.parse(check(read('evil$.example'))!.text)).toEqual({ error: expect.stringMatching(/^Host not allowed: this control request was addressed to "evil\$\.example", which is not a host name/) });
});

test('loopback with and without a port, IP addresses, listed names, and no Host (or an empty one) still pass', () => {
  const check = createOriginCheck({ allowedHosts: ['harness'] }, { accessSet: false, logger: quiet });
  for (const host of ['localhost', 'localhost:3000', '127.0.0.1', '127.0.0.1:3000', '[::1]', '[::1]:3000', '10.0.0.5:3000', 'harness', 'harness:9400', null, '']) expect(statusFor(check, host), String(host)).toBe(200);
});

test('allowedHosts "*" (and access set without allowedHosts) answers any Host, odd ones too: the token is the guard', () => {
  expect(statusFor(createOriginCheck({ allowedHosts: '*' }, { accessSet: false, logger: quiet }), 'evil$.example')).toBe(200);
  expect(statusFor(createOriginCheck(undefined, { accessSet: true, logger: quiet }), 'evil$.example')).toBe(200);
  expect(statusFor(createOriginCheck({ allowedHosts: ['harness'] }, { accessSet: true, logger: quiet }), 'evil$.example')).toBe(403);
});

test('the refusal of an unreadable Host is logged once, apart from the one of a name not allowed', () => {
  const warnings: string[] = [];
  const check = createOriginCheck(undefined, { accessSet: false, logger: { ...quiet, warn: (line) => warnings.push(line) } });
  for (const host of ['evil$.example', 'ev!l.example', 'evil.example', 'other.example']) check(read(host));
  expect(warnings).toEqual([
    'Refused GET /__harness__/journal addressed to Host "evil$.example" with 403: it is not a host name. Address the app by localhost, 127.0.0.1, [::1], its IP address or a name in control.allowedHosts. (Logged once.)',
    expect.stringMatching(/^Refused GET \/__harness__\/journal addressed to Host "evil\.example" with 403: allow the name/),
  ]);
});
