import { networkInterfaces } from 'node:os';
import { expect, test } from 'vitest';
import { isLocalAddress } from './local-address.js';

test.each(['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '0.0.0.0', '0.1.2.3', '::', '::ffff:0.0.0.0'])('%s lands on this machine', (address) => {
  expect(isLocalAddress(address)).toBe(true);
});

test('the addresses of its interfaces land on this machine too (a pod IP reaches its sidecars)', () => {
  const addresses = Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address.replace(/%.*$/, '')));
  for (const address of addresses) expect(isLocalAddress(address), address).toBe(true);
});

test.each(['203.0.113.7', '2001:db8::1', 'localhost', 'api.stripe.com', ''])('%s is not a local address', (address) => {
  expect(isLocalAddress(address)).toBe(false);
});
