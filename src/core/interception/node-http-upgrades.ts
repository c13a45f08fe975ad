import { AsyncLocalStorage } from 'node:async_hooks';
import type http from 'node:http';
import type tls from 'node:tls';
import type { Duplex } from 'node:stream';
import type { CallOutcome } from './call-outcome.js';
import { callFromParts, type OutgoingCall } from './outgoing-call.js';
import { requestTargetUrl } from './request-target-url.js';
import { SOCKET_TICKET_HEADER, type SocketBridge } from './socket-bridge.js';
import { socketUrlOf } from './socket-url.js';

type RequestFunction = (...args: unknown[]) => http.ClientRequest;

/**
 * An option the harness's own clients set on a handshake that must go out as made (a recording
 * relay's connection to the real server): the bridge would otherwise send it back to itself.
 */
export const GOES_OUT_AS_MADE = Symbol.for('scenario-harness.upgradeGoesOutAsMade');
type CreateConnection = (options: http.RequestOptions, callback?: (error: Error | null, socket?: Duplex) => void) => Duplex | undefined;

export interface NodeHttpUpgradesOptions {
  bridge: SocketBridge;
  decide(call: OutgoingCall): Promise<CallOutcome>;
  /** Connects as the library's internal connections do: past the interception library, to the socket guard. */
  outsideInterception<T>(connect: () => T): T;
}

/** The URL, options and where they sit in `request(url, options?, cb?)` / `request(options, cb?)`; `undefined` for a call left alone. */
function upgradeOf(scheme: 'http' | 'https', args: unknown[]): { url: URL; options: http.RequestOptions; index: number } | undefined {
  const [first, second] = args;
  const fromUrl = typeof first === 'string' || first instanceof URL ? new URL(first) : undefined;
  const index = fromUrl === undefined ? 0 : 1;
  const given = args[index];
  const options = (typeof given === 'object' && given !== null ? given : {}) as http.RequestOptions;
  if ((options as Record<symbol, unknown>)[GOES_OUT_AS_MADE] === true) return undefined;
  if (fromUrl !== undefined && typeof second !== 'object') return undefined;
  const headers = options.headers;
  const names = Array.isArray(headers) ? headers.filter((_, i) => i % 2 === 0).map(String) : Object.keys(headers ?? {});
  if (!names.some((name) => name.toLowerCase() === 'upgrade')) return undefined;
  // A unix socket never leaves the machine: it goes on as made.
  if (options.socketPath !== undefined) return undefined;
  const { globalAgent } = process.getBuiltinModule(scheme === 'http' ? 'node:http' : 'node:https');
  // An agent of the app's own (a proxy agent) decides how the client connects, and the bridge could
  // not carry a call no mock answers through it: such a client is decided where it connects
  // (node-http-interceptor.ts), and a socket mock cannot answer it (the error says so).
  if (typeof options.agent === 'object' && options.agent !== null && options.agent !== globalAgent) return undefined;
  return { url: requestTargetUrl(scheme, options, fromUrl), options, index };
}

/** The request line and headers as the client wrote them, for the real server. */
function requestHead(request: http.IncomingMessage): string {
  const lines = [`${request.method} ${request.url} HTTP/1.1`];
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.toLowerCase() !== SOCKET_TICKET_HEADER) lines.push(`${raw[i]}: ${raw[i + 1]}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * HTTP Upgrade requests of node:http/https (the `ws` package, socket.io's and the OpenAI SDK's
 * sockets through it) go to the harness's socket bridge, which decides them in the app's async
 * context: a socket mock answers there, a call no mock answers is carried on to the real server
 * by the client's own connection function (its TLS options, its `lookup`), and a failed one ends
 * the client's request with the harness's error.
 * @note Redirected before anything is decided: `request()` is synchronous, and so is the
 * `createConnection` it calls, so the connection must be chosen before a store can be asked.
 * @returns a function that puts `request` and `get` back.
 */
export function installNodeHttpUpgrades({ bridge, decide, outsideInterception }: NodeHttpUpgradesOptions): () => void {
  const restores: (() => void)[] = [];
  const net = process.getBuiltinModule('node:net');
  const tls = process.getBuiltinModule('node:tls');
  for (const scheme of ['http', 'https'] as const) {
    const module = process.getBuiltinModule(scheme === 'http' ? 'node:http' : 'node:https') as unknown as Record<'request' | 'get', RequestFunction>;
    for (const key of ['request', 'get'] as const) {
      const original = module[key];
      const wrapped = function (this: unknown, ...args: unknown[]) {
        const found = upgradeOf(scheme, args);
        if (found === undefined) return Reflect.apply(original, this, args);
        const { url, options, index } = found;
        const own = options.createConnection as CreateConnection | undefined;
        const inContext = AsyncLocalStorage.snapshot();
        let clientSide: Duplex | undefined;
        const ticket = bridge.expect({
          url: socketUrlOf(url),
          decide: (headers) => inContext(() => decide(callFromParts({ method: (options.method ?? 'GET').toUpperCase(), url, headers, readBody: async () => undefined, upgrade: headers.get('upgrade')?.toLowerCase() ?? 'websocket' }))),
          passThrough(serverSide, head, request) {
            const host = url.hostname.replace(/^\[|\]$/g, '');
            const port = Number(url.port) || (scheme === 'https' ? 443 : 80);
            const real = outsideInterception(() =>
              own !== undefined
                ? own({ ...options, host, port })
                : scheme === 'https'
                  ? tls.connect({ ...(options as tls.ConnectionOptions), path: undefined, host, port, servername: (options as tls.ConnectionOptions).servername ?? (net.isIP(host) ? undefined : host) })
                  : net.connect({ host, port, ...(options.lookup === undefined ? {} : { lookup: options.lookup }), ...(options.family === undefined ? {} : { family: options.family }) }),
            );
            if (real === undefined) return void serverSide.destroy();
            real.on('error', (error) => clientSide?.destroy(error));
            serverSide.on('error', () => real.destroy());
            real.write(requestHead(request));
            if (head.byteLength > 0) real.write(head);
            real.pipe(serverSide).pipe(real);
          },
          fail: (error) => clientSide?.destroy(error),
        });
        const headers = Array.isArray(options.headers) ? [...options.headers, SOCKET_TICKET_HEADER, ticket] : { ...options.headers, [SOCKET_TICKET_HEADER]: ticket };
        const createConnection = () => (clientSide = outsideInterception(() => net.connect(bridge.port, '127.0.0.1')));
        const next = [...args];
        next[index] = { ...options, headers, agent: undefined, createConnection };
        return Reflect.apply(original, this, next);
      };
      module[key] = wrapped;
      restores.push(() => {
        if (module[key] === wrapped) module[key] = original;
      });
    }
  }
  return () => {
    for (const restore of restores) restore();
  };
}
