import type { Duplex } from 'node:stream';
import { runWithTestId, tryGetTestId } from '../test-context.js';
import type { CallOutcome } from './call-outcome.js';
import { callFromParts, type OutgoingCall } from './outgoing-call.js';
import { SOCKET_TICKET_PATH, type SocketBridge } from './socket-bridge.js';

export interface GlobalWebSocketPatchOptions {
  bridge: SocketBridge;
  decide(call: OutgoingCall): Promise<CallOutcome>;
}

type WebSocketClass = typeof WebSocket;

/** The client's handshake, for the real server: the path and host of the URL the app opened, its headers as the bridge got them. */
function requestHead(url: URL, headers: Headers): string {
  const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`];
  for (const [name, value] of headers) if (name !== 'host') lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * The global `WebSocket` on Bun and Deno, whose own clients reach neither undici's dispatcher
 * nor node:http: each socket opens to the harness's bridge instead, its ticket in the path (the
 * browser API sets no headers), and the bridge decides it in the test's context: a socket mock
 * answers it there, or the handshake is carried to the real server as the client wrote it. The
 * app's object keeps the URL it opened (`url`).
 * @returns a function that puts the runtime's own `WebSocket` back.
 */
export function installGlobalWebSocketPatch({ bridge, decide }: GlobalWebSocketPatchOptions): () => void {
  const Original = globalThis.WebSocket as WebSocketClass | undefined;
  if (Original === undefined) return () => {};
  const net = process.getBuiltinModule('node:net');
  const tls = process.getBuiltinModule('node:tls');

  class HarnessWebSocket extends Original {
    readonly #url: string;
    constructor(url: string | URL, protocols?: string | string[]) {
      const target = new URL(url);
      const http = new URL(target.href.replace(/^ws/i, 'http'));
      const testId = tryGetTestId();
      const ticket = bridge.expect({
        url: target,
        decide: (headers) => {
          const call = callFromParts({ method: 'GET', url: http, headers, readBody: async () => undefined, upgrade: 'websocket' });
          return testId === undefined ? decide(call) : runWithTestId(testId, () => decide(call));
        },
        passThrough(serverSide: Duplex, head: Buffer, request) {
          const host = http.hostname.replace(/^\[|\]$/g, '');
          const secure = http.protocol === 'https:';
          const port = Number(http.port) || (secure ? 443 : 80);
          const real = secure ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
          real.on('error', () => serverSide.destroy());
          serverSide.on('error', () => real.destroy());
          const headers = new Headers();
          for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) headers.append(request.rawHeaders[i]!, request.rawHeaders[i + 1]!);
          real.write(requestHead(http, headers));
          if (head.byteLength > 0) real.write(head);
          real.pipe(serverSide).pipe(real);
        },
      });
      super(`ws://${bridge.host}${SOCKET_TICKET_PATH}${ticket}`, protocols);
      this.#url = target.href;
    }
    override get url(): string {
      return this.#url;
    }
  }
  globalThis.WebSocket = HarnessWebSocket as WebSocketClass;
  return () => {
    if (globalThis.WebSocket === (HarnessWebSocket as WebSocketClass)) globalThis.WebSocket = Original;
  };
}
