import type net from 'node:net';
import type tls from 'node:tls';
import type { SocketAnswer } from '../../core/interception/socket-connection.js';
import { outsideInterception } from '../../core/interception/client-request-sockets.js';
import { GOES_OUT_AS_MADE } from '../../core/interception/node-http-upgrades.js';
import { runRecordedCall } from '../../core/recording/recorded-call-context.js';
import type { RecordedSocket } from '../../core/recording/recorded-exchange.js';

/**
 * The relay's own connection to the real server: past the interception library (which would
 * hand it to the harness again), to the socket guard, as the `ws` client would make it.
 */
function connectOutside(url: URL) {
  const secure = url.protocol === 'wss:';
  return (options: Record<string, unknown>) => {
    const target = { ...options, path: undefined };
    const host = String(options.host ?? url.hostname);
    const net = process.getBuiltinModule('node:net');
    const tls = process.getBuiltinModule('node:tls');
    // A recorded call's own connection: the socket guard lets it reach the real server whatever `unhandled` says.
    return runRecordedCall(() => outsideInterception(() => (secure ? tls.connect({ ...target, servername: net.isIP(host) ? undefined : host } as tls.ConnectionOptions) : net.connect(target as unknown as net.NetConnectOpts))));
  };
}

/** Headers a WebSocket client makes itself for its own handshake; the others the app's client sent are sent on. */
const HANDSHAKE_HEADERS = new Set(['host', 'connection', 'upgrade', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions', 'sec-websocket-protocol', 'content-length', 'transfer-encoding']);

/**
 * A recording test's WebSocket: the app's client is answered at the bridge, and the bridge
 * opens the same socket to the real server (the `ws` package's client, the app's headers and the
 * first subprotocol the app offered) and relays every frame and the close both ways, keeping each
 * frame's direction and time for the draft. `keep` gets the recording when the socket closes.
 * @note The real connection is the harness's, not the app's client's: its own TLS options, agent
 * or proxy are not used for it.
 */
export function recordSocket(url: URL, offered: readonly string[], keep: (socket: RecordedSocket, headers: Headers) => void): SocketAnswer {
  const protocol = offered[0];
  return {
    protocol,
    open(connection, handshake) {
      const startedAt = performance.now();
      const at = () => Math.round((performance.now() - startedAt) * 1000) / 1000;
      const recorded: RecordedSocket = { ...(protocol === undefined ? {} : { protocol }), frames: [] };
      const headers = Object.fromEntries([...handshake.headers].filter(([name]) => !HANDSHAKE_HEADERS.has(name) && !name.startsWith('x-harness-')));
      const waiting: { data: Buffer; binary: boolean }[] = [];
      let done = false;
      const finish = (by: 'app' | 'server', code: number, reason: string) => {
        if (done) return;
        done = true;
        recorded.close = { by, code, reason, atMs: at() };
        keep(recorded, handshake.headers);
      };
      let real: import('ws').WebSocket | undefined;
      // Listened to at once: a frame the app sends before the real socket is made waits for it.
      connection.onFrame((data, binary) => {
        recorded.frames.push({ direction: 'sent', ...(binary ? { base64: data.toString('base64') } : { text: data.toString('utf8') }), atMs: at() });
        if (real?.readyState === 1) real.send(data, { binary });
        else waiting.push({ data, binary });
      });
      connection.onClose((code, reason, by) => {
        if (by === 'client') finish('app', code, reason);
        if (real !== undefined && real.readyState <= 1) real.close(code === 1005 || code === 1006 ? 1000 : code, reason);
      });
      void import('ws').then(({ default: WebSocket }) => {
        if (!connection.isOpen) return;
        real = new WebSocket(url.href, protocol === undefined ? [] : [protocol], { headers, createConnection: connectOutside(url), [GOES_OUT_AS_MADE]: true } as object);
        real.on('open', () => {
          for (const { data, binary } of waiting.splice(0)) real!.send(data, { binary });
        });
        real.on('message', (data, binary) => {
          const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
          recorded.frames.push({ direction: 'received', ...(binary ? { base64: bytes.toString('base64') } : { text: bytes.toString('utf8') }), atMs: at() });
          void connection.send(binary ? bytes : bytes.toString('utf8'), binary);
        });
        real.on('close', (code, reason) => {
          finish('server', code, reason.toString('utf8'));
          if (connection.isOpen) connection.close(code === 1005 || code === 1006 ? 1000 : code, reason.toString('utf8'));
        });
        real.on('error', () => {
          finish('server', 1006, 'the real server could not be reached');
          connection.drop();
        });
      });
    },
  };
}
