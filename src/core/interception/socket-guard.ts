import type net from 'node:net';
import { isLoopbackWithoutLookup } from '../is-loopback.js';
import { connectTarget } from './connect-target.js';

export interface SocketGuardOptions {
  /** True when a connection to this host must not be opened (`unhandled: 'error'`, not allowed). */
  isBlocked(hostname: string, port: number | undefined): boolean;
  report(message: string): void;
}

/**
 * The last line of "nothing escapes": while a harness runs with `unhandled: 'error'`, a TCP
 * connection to a non-loopback host that no interception layer saw (an undici `Client` or
 * `Pool` the app built itself, a raw `net`/`tls` socket) is refused before any DNS lookup.
 * @returns a function that restores `net.Socket.prototype.connect`.
 */
export function installSocketGuard({ isBlocked, report }: SocketGuardOptions): () => void {
  // Got here, not imported: this module loads with the harness even when it is off (interception.ts).
  const prototype = process.getBuiltinModule('node:net').Socket.prototype as unknown as { connect(...args: unknown[]): net.Socket };
  const original = prototype.connect;
  const guarded = function connect(this: net.Socket, ...args: unknown[]): net.Socket {
    const target = connectTarget(args);
    if (target !== undefined) {
      const hostname = target.host.replace(/^\[|\]$/g, '');
      if (!isLoopbackWithoutLookup(hostname) && isBlocked(hostname, target.port)) {
        const address = `${hostname}${target.port === undefined ? '' : `:${target.port}`}`;
        const error = Object.assign(
          new Error(
            `[scenario-harness] Blocked a connection to ${address}: the harness runs with unhandled: 'error', so nothing may leave the machine, and this connection was opened outside the layers the harness answers (fetch, undici's global dispatcher, node:http/https) — for example by an undici Client or Pool the app built itself, or a raw net/tls socket. Make the call with fetch, undici.request or node:http (or an undici client built with the global dispatcher) so a mock can answer it, or list the host in createHarness({ allowHosts: ['${hostname}'] }) if it must be reached for real (a database, a message queue).`,
          ),
          { code: 'ERR_SCENARIO_HARNESS_BLOCKED' },
        );
        report(error.message);
        process.nextTick(() => this.destroy(error));
        return this;
      }
    }
    return original.apply(this, args);
  };
  prototype.connect = guarded;
  return () => {
    if (prototype.connect === guarded) prototype.connect = original;
  };
}
