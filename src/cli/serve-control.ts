import { isIP } from 'node:net';
import { isLoopback } from '../core/is-loopback.js';
import type { HarnessControlOptions } from '../core/types.js';
import { UsageError } from './command.js';

/** The environment variable `serve` (and `scenario-harness/register`) reads extra control Host names from, comma-separated. */
export const ALLOWED_HOSTS_ENV = 'HARNESS_ALLOWED_HOSTS';

export interface ServeControlInput {
  /** `--host`: a name given there is one the tests reach the server by. */
  host: string;
  /** `--allowed-host`, each time it is given. */
  allowedHosts: readonly string[] | undefined;
  /** `process.env.HARNESS_ALLOWED_HOSTS`. */
  envAllowedHosts: string | undefined;
  /** `--allow-cross-site`. */
  allowCrossSite: boolean;
}

/**
 * The server's `control` option from `--allowed-host`, HARNESS_ALLOWED_HOSTS and `--allow-cross-site`;
 * `undefined` when none is given. A name given to `--host` (not an address) is allowed too: the
 * server is reached by it. `*` allows any Host.
 *
 * @example
 * serveControl({ host: '0.0.0.0', allowedHosts: ['harness'], envAllowedHosts: undefined, allowCrossSite: false });
 * // { allowedHosts: ['harness'] }
 */
export function serveControl({ host, allowedHosts = [], envAllowedHosts, allowCrossSite }: ServeControlInput): HarnessControlOptions | undefined {
  const names = [...allowedHosts, ...(envAllowedHosts ?? '').split(',')].map((name) => name.trim()).filter((name) => name !== '');
  for (const name of names) {
    if (name !== '*' && /[/\s@]/.test(name)) throw new UsageError(`Expected --allowed-host (or ${ALLOWED_HOSTS_ENV}) to be a host name such as harness, harness:9400 or *.internal (no scheme, no path), instead got "${name}".`);
  }
  const boundName = isLoopback(host) || isIP(host) !== 0 ? [] : [host];
  const all = [...new Set([...names, ...boundName])];
  const control: HarnessControlOptions = {
    ...(all.length === 0 ? {} : { allowedHosts: all.includes('*') ? '*' : all }),
    ...(allowCrossSite ? { allowCrossSite: true } : {}),
  };
  return Object.keys(control).length === 0 ? undefined : control;
}
