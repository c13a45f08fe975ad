import type dns from 'node:dns';
import type net from 'node:net';

/**
 * A tripwire under every client: counts (and refuses) each DNS lookup of, and each TCP connection
 * to, a host that is not loopback. Installed before the harness starts, so the harness's own
 * socket guard sits on top of it: a call that reaches the tripwire escaped every harness layer.
 * `letThrough` names stand-ins for real APIs that a test's own agent resolves to a loopback
 * upstream: their connections are neither counted nor refused. `connects: false` watches lookups
 * only, for a thread where the tripwire can only go in after the harness's guard (the lookup is
 * still beneath it: Node looks the host up after `connect()`).
 *
 * Self-contained (no imports, no outer names), so a test can send its source into a worker thread.
 */
export function installTripwire({ letThrough = [], connects = true }: { letThrough?: readonly string[]; connects?: boolean } = {}) {
  // Its own loopback test, not the harness's: the tripwire must not share code with what it checks.
  const isLoopback = (host: string) => host === 'localhost' || host === '::1' || host.startsWith('127.');
  const dnsModule = process.getBuiltinModule('node:dns') as typeof dns;
  const attempts: string[] = [];
  const socketPrototype = (process.getBuiltinModule('node:net') as typeof net).Socket.prototype as unknown as { connect(...args: unknown[]): net.Socket };
  const originalConnect = socketPrototype.connect;
  const originalLookup = dnsModule.lookup;
  const originalPromisesLookup = dnsModule.promises.lookup;

  /**
   * A connect that names its own `lookup` reaches whatever that lookup resolves to: judged by the
   * addresses it gives. The interception library connects the app's socket this way, with a
   * lookup that answers loopback for every name and a connection it never really opens.
   */
  const judgedByAddress = (host: string, lookup: (...args: unknown[]) => void) =>
    function (hostname: string, options: unknown, callback: (error: Error | null, ...rest: unknown[]) => void) {
      lookup(hostname, options, (error: Error | null, address: unknown, family?: unknown) => {
        const addresses = Array.isArray(address) ? address.map((entry: { address: string }) => entry.address) : [address as string];
        if (error === null && addresses.some((one) => typeof one === 'string' && !isLoopback(one) && one !== '::ffff:127.0.0.1')) {
          attempts.push(`connect ${host}`);
          return callback(new Error(`tripwire: connection to ${host} refused`));
        }
        callback(error, address, family);
      });
    };

  if (connects) {
    socketPrototype.connect = function (this: net.Socket, ...args: unknown[]) {
      const first = (Array.isArray(args[0]) ? args[0][0] : args[0]) as { host?: string; path?: string; lookup?: unknown } | number | string;
      const host = typeof first === 'object' ? (first.path === undefined ? (first.host ?? 'localhost') : undefined) : typeof args[1] === 'string' ? args[1] : 'localhost';
      if (host !== undefined && typeof first === 'object' && typeof first.lookup === 'function' && !letThrough.includes(host)) {
        const judged = { ...first, lookup: judgedByAddress(host, first.lookup as (...args: unknown[]) => void) };
        // net.connect() hands over its normalised arguments as a marked array: swapped in place, it stays that array.
        if (Array.isArray(args[0])) args[0][0] = judged;
        return originalConnect.apply(this, Array.isArray(args[0]) ? args : [judged, ...args.slice(1)]);
      }
      if (host !== undefined && !isLoopback(host.replace(/^\[|\]$/g, '')) && !letThrough.includes(host)) {
        attempts.push(`connect ${host}`);
        process.nextTick(() => this.destroy(new Error(`tripwire: connection to ${host} refused`)));
        return this;
      }
      return originalConnect.apply(this, args);
    };
  }
  const lookup = function (hostname: string, ...rest: unknown[]) {
    if (!isLoopback(hostname)) {
      attempts.push(`lookup ${hostname}`);
      const callback = rest.at(-1) as (error: Error) => void;
      process.nextTick(() => callback(Object.assign(new Error(`tripwire: lookup of ${hostname} refused`), { code: 'ENOTFOUND' })));
      return;
    }
    return (originalLookup as (...args: unknown[]) => void)(hostname, ...rest);
  };
  (dnsModule as { lookup: unknown }).lookup = lookup;
  dnsModule.promises.lookup = (async (hostname: string, options?: unknown) => {
    if (!isLoopback(hostname)) {
      attempts.push(`lookup ${hostname}`);
      throw Object.assign(new Error(`tripwire: lookup of ${hostname} refused`), { code: 'ENOTFOUND' });
    }
    return originalPromisesLookup(hostname, options as dns.LookupOptions);
  }) as typeof dns.promises.lookup;

  return {
    attempts,
    remove() {
      socketPrototype.connect = originalConnect;
      (dnsModule as { lookup: unknown }).lookup = originalLookup;
      dnsModule.promises.lookup = originalPromisesLookup;
    },
  };
}
