import { AsyncLocalStorage } from 'node:async_hooks';
import type net from 'node:net';
import { installSharedSecureContext } from './shared-secure-context.js';

/** The interception library's runner for connections it must leave alone (it consumes one per connect). */
interface InternalConnectionContext {
  run<T>(callback: () => T): T;
}

type RequestFunction = (...args: unknown[]) => unknown;

/**
 * Run `connect` as one of the interception library's internal connections: it goes to the real
 * `connect` untouched (the socket guard beneath still judges it). Without the library loaded,
 * `connect` runs as it is.
 */
export function outsideInterception<T>(connect: () => T): T {
  const internal = (globalThis as { __MSW_INTERNAL_CONNECTION_CONTEXT?: InternalConnectionContext }).__MSW_INTERNAL_CONNECTION_CONTEXT;
  return internal === undefined ? connect() : internal.run(connect);
}

/**
 * Only the sockets of node:http/https client requests go through the interception library.
 * @note Its current line holds every new socket in the process as connected until it knows what
 * the socket carries: a database or Redis client then saw a connect before its real one failed
 * (node-redis took a downed Redis for back up, and its commands failed at once instead of
 * waiting), and an undici `Client` the app built, which no mock can answer, was parsed for
 * nothing. So a connect made outside a `request`/`get`/`ClientRequest` of node:http or
 * node:https (in their async context, which reaches an agent that connects later) is made as one
 * of the library's internal connections, which it passes to the real `connect` untouched: the
 * socket guard beneath judges it at once, as before the library moved to sockets. The runner is
 * the library's own, shared on `globalThis` across its copies.
 * @see https://github.com/mswjs/interceptors/blob/main/src/utils/internal-connection.ts
 * Their TLS sockets share one default secure context (shared-secure-context.ts).
 * @returns a function that puts `request`, `get`, `ClientRequest`, `connect` and `tls.connect` back.
 */
export function installClientRequestSockets(): () => void {
  const internal = (globalThis as { __MSW_INTERNAL_CONNECTION_CONTEXT?: InternalConnectionContext }).__MSW_INTERNAL_CONNECTION_CONTEXT;
  if (internal === undefined) return () => {};
  const clientRequest = new AsyncLocalStorage<true>();
  const restores: (() => void)[] = [];

  const http = process.getBuiltinModule('node:http') as unknown as Record<string, unknown>;
  const https = process.getBuiltinModule('node:https') as unknown as Record<string, unknown>;
  for (const [module, key] of [[http, 'request'], [http, 'get'], [https, 'request'], [https, 'get']] as const) {
    const original = module[key] as RequestFunction;
    const wrapped = function (this: unknown, ...args: unknown[]) {
      return clientRequest.run(true, () => Reflect.apply(original, this, args));
    };
    module[key] = wrapped;
    restores.push(() => {
      if (module[key] === wrapped) module[key] = original;
    });
  }
  const OriginalClientRequest = http.ClientRequest as new (...args: unknown[]) => object;
  const ClientRequest = new Proxy(OriginalClientRequest, {
    construct: (target, args, newTarget) => clientRequest.run(true, () => Reflect.construct(target, args, newTarget)),
  });
  http.ClientRequest = ClientRequest;
  restores.push(() => {
    if (http.ClientRequest === ClientRequest) http.ClientRequest = OriginalClientRequest;
  });

  const prototype = process.getBuiltinModule('node:net').Socket.prototype as unknown as { connect(...args: unknown[]): net.Socket };
  const connect = prototype.connect;
  const outside = function (this: net.Socket, ...args: unknown[]): net.Socket {
    if (clientRequest.getStore() === true) return connect.apply(this, args);
    return internal.run(() => connect.apply(this, args));
  };
  prototype.connect = outside;
  restores.push(() => {
    if (prototype.connect === outside) prototype.connect = connect;
  });
  restores.push(installSharedSecureContext(() => clientRequest.getStore() === true));
  return () => {
    for (const restore of restores.reverse()) restore();
  };
}
