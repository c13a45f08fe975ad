import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * Addresses that reach this machine whatever interface it has: loopback (127.0.0.0/8, ::1) and
 * the unspecified ones (0.0.0.0/8, ::), which Linux and macOS connect to the local host.
 * IPv4-mapped IPv6 forms (`::ffff:127.0.0.1`) match the IPv4 rules: BlockList checks them so.
 */
const ALWAYS_LOCAL = new BlockList();
ALWAYS_LOCAL.addSubnet('127.0.0.0', 8, 'ipv4');
ALWAYS_LOCAL.addSubnet('0.0.0.0', 8, 'ipv4');
ALWAYS_LOCAL.addAddress('::1', 'ipv6');
ALWAYS_LOCAL.addAddress('::', 'ipv6');

/**
 * True when a connection to `address` (an IP address, as DNS gives it) lands on this machine:
 * loopback, unspecified, or an address of one of its interfaces (a pod's own IP reaches every
 * sidecar that listens on all interfaces). Interfaces are read on each call: they can change.
 */
export function isLocalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (ALWAYS_LOCAL.check(address, type)) return true;
  const own = new BlockList();
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) own.addAddress(entry.address.replace(/%.*$/, ''), entry.family === 'IPv4' ? 'ipv4' : 'ipv6');
  }
  return own.check(address, type);
}
