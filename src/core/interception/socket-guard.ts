import type net from 'node:net';
import { isLoopbackWithoutLookup } from '../is-loopback.js';
import { connectTarget } from './connect-target.js';

export interface SocketGuardOptions {
  /** True when a connection to this host must not be opened (`unhandled: 'error'`, not allowed). */
  isBlocked(hostname: string, port: number | undefined): boolean;
  report(message: string): void;
}

/**
 * True for the connect the interception library makes on a socket it controls: it connects the
 * app's socket with a lookup of its own that resolves every name to loopback, and that connect
 * never opens a real connection (the library answers it, or later dials the real host on a
 * fresh socket, which this guard does judge).
 * @note Recognised by that lookup's name in @mswjs/interceptors 0.45 (`mockLookup`, in its net
 * interceptor). Were it renamed, every mocked node:http call under `unhandled: 'error'` would be
 * refused, which the interception suites would show at once: nothing could slip out unseen.
 */
function isInterceptorsOwnConnect(args: unknown[]): boolean {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const lookup = typeof first === 'object' && first !== null ? (first as { lookup?: unknown }).lookup : undefined;
  return typeof lookup === 'function' && lookup.name === 'mockLookup';
}

/**
 * The last line of "nothing escapes": while a harness runs with `unhandled: 'error'`, a TCP
 * connection to a non-loopback host that no mock answers (an undici `Client` or `Pool` the app
 * built itself, a raw `net`/`tls` socket) is refused before any DNS lookup.
 * @note Installed beneath the interception library, which patches `Socket.prototype.connect`
 * too and hands a connection on to this guard only when it is really made: node:http calls are
 * decided per request on a socket the library holds, and only a passed-through one connects.
 * @returns a function that restores `net.Socket.prototype.connect`.
 */
export function installSocketGuard({ isBlocked, report }: SocketGuardOptions): () => void {
  // Got here, not imported: this module loads with the harness even when it is off (interception.ts).
  const prototype = process.getBuiltinModule('node:net').Socket.prototype as unknown as { connect(...args: unknown[]): net.Socket };
  const original = prototype.connect;
  const guarded = function connect(this: net.Socket, ...args: unknown[]): net.Socket {
    const target = isInterceptorsOwnConnect(args) ? undefined : connectTarget(args);
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
        // As Node leaves a socket whose connect began and then failed: connecting until it is
        // destroyed. (Left idle, the interception library took it for a socket already connected
        // and closed the app's socket before its error reached it: undici said only "closed".)
        (this as { connecting: boolean }).connecting = true;
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
