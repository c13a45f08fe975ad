import { isIP } from 'node:net';
import { compileHostList } from '../host-list.js';
import { isLoopback } from '../is-loopback.js';
import type { HostParts } from './host-of.js';

/**
 * Which `Host` names the control endpoints answer: loopback (`localhost`, `*.localhost`,
 * 127.0.0.0/8, ::1), any IP address, and the names given; `'*'` any.
 *
 * @note IP addresses are safe to accept, as Vite and webpack-dev-server do: DNS rebinding needs a
 * name the attacker controls, and a page whose address is the app's own IP is the app itself.
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/decisions/cross-site-control-requests.md
 *
 * @example
 * const allowed = compileAllowedHosts(['harness', '*.svc.cluster.local']);
 * allowed({ hostname: 'harness', port: 9400 }); // true
 */
export function compileAllowedHosts(allowedHosts: readonly (string | RegExp)[] | '*'): (host: HostParts) => boolean {
  if (allowedHosts === '*') return () => true;
  const listed = compileHostList(allowedHosts);
  return ({ hostname, port }) => isLoopback(hostname) || isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0 || listed(hostname, port);
}
