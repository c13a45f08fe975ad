import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { importLazily } from '../import-lazily.js';
import type { CallOutcome } from './call-outcome.js';
import { interceptionFailed } from './interception-failed.js';
import type { SocketAnswer, SocketConnection } from './socket-connection.js';

/** The header that tells the bridge which handshake a connection carries; never leaves the machine. */
export const SOCKET_TICKET_HEADER = 'x-harness-socket-ticket';

/** Where a client that cannot set headers (a global `WebSocket` on Bun and Deno) carries its ticket instead: `/<prefix><ticket>`. */
export const SOCKET_TICKET_PATH = '/__harness_socket/';

/** How long a handshake handed to the bridge may take to arrive before its ticket is forgotten. */
const TICKET_TTL_MS = 60_000;

/** A handshake on its way to the bridge: decided already (undici), or to decide there (node:http). */
export interface SocketTicket {
  /** The URL as the app opened it. */
  url: URL;
  /** Decided by the layer: a socket mock answers it. */
  answer?: SocketAnswer;
  /** Decided at the bridge, in the app's async context: the layer could not wait before connecting. */
  decide?(headers: Headers): Promise<CallOutcome>;
  /** No mock answers it: carry the handshake, as the client wrote it, to the real server. */
  passThrough?(connection: Duplex, head: Buffer, request: http.IncomingMessage): void;
  /** It fails with the harness's reason (the client sees this error). */
  fail?(error: Error): void;
}

/**
 * The harness's loopback WebSocket server. A layer that finds a socket mock for an upgrade sends
 * the client here instead of to its server, with a ticket header: the client then does a real
 * RFC 6455 handshake (its accept key, its subprotocol, its frames) with the `ws` package's
 * server, and the socket mock drives the other end. Started with the interception layers; `ws`
 * loads on the first handshake.
 */
export interface SocketBridge {
  /** `127.0.0.1:<port>`. */
  readonly host: string;
  readonly port: number;
  /** Hand a handshake over; the returned ticket goes in `SOCKET_TICKET_HEADER`. */
  expect(ticket: SocketTicket): string;
  stop(): void;
}

/**
 * `ws`, loaded on first use. Deno cannot evaluate the package's ESM wrapper (its CommonJS
 * modules give it no default export there), so there it is required instead.
 */
function loadWs() {
  return importLazily(
    () => import('ws').catch((error: unknown) => {
      if (process.versions.deno === undefined) throw error;
      return process.getBuiltinModule('node:module').createRequire(import.meta.url)('ws') as typeof import('ws');
    }),
    'ws',
    (reason, remedy, cause) => interceptionFailed(`the WebSocket package failed to load: ${reason}`, remedy, cause),
  );
}

/** The headers of a handshake, the ticket left out. */
function handshakeHeaders(request: http.IncomingMessage): Headers {
  const headers = new Headers();
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.toLowerCase() !== SOCKET_TICKET_HEADER) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

/** A `ws` server socket, as a socket mock drives it. */
function connectionOf(socket: WebSocket): SocketConnection {
  let closedBy: 'client' | 'mock' = 'client';
  /** The close frame the mock sent: the client's echo may carry no reason (undici's carries the code alone). */
  let sent: { code: number; reason: string } | undefined;
  return {
    send: (data, binary) => new Promise((resolve) => socket.send(data, { binary }, () => resolve())),
    close(code, reason) {
      closedBy = 'mock';
      sent ??= { code, reason };
      socket.close(code, reason);
    },
    drop() {
      closedBy = 'mock';
      socket.terminate();
    },
    // `ws` hands over a Buffer (binaryType 'nodebuffer'): used as it is, not copied.
    onFrame: (listener) => void socket.on('message', (data, binary) => listener(Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data), binary)),
    onClose: (listener) => void socket.once('close', (code, reason) => listener(sent?.code ?? code, sent?.reason ?? reason.toString('utf8'), closedBy)),
    get isOpen() {
      return socket.readyState === socket.OPEN;
    },
  };
}

/** Start the bridge on a free loopback port. */
export async function startSocketBridge(report: (message: string) => void): Promise<SocketBridge> {
  const { createServer } = process.getBuiltinModule('node:http');
  const tickets = new Map<string, { ticket: SocketTicket; timer: NodeJS.Timeout }>();
  let wss: WebSocketServer | undefined;
  /** The subprotocol chosen for each handshake in flight (ws asks `handleProtocols` while upgrading). */
  const chosen = new WeakMap<http.IncomingMessage, string | undefined>();

  async function accept(answer: SocketAnswer, url: URL, request: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    if (wss === undefined) {
      const { WebSocketServer } = await loadWs();
      wss ??= new WebSocketServer({ noServer: true, perMessageDeflate: false, handleProtocols: (offered, req) => chosen.get(req) ?? false });
    }
    const offered = String(request.headers['sec-websocket-protocol'] ?? '').split(',').map((name) => name.trim()).filter(Boolean);
    const protocol = answer.protocol !== undefined ? (offered.includes(answer.protocol) ? answer.protocol : undefined) : offered[0];
    chosen.set(request, protocol);
    wss.handleUpgrade(request, socket, head, (ws) => answer.open(connectionOf(ws), { url, headers: handshakeHeaders(request), protocol }));
  }

  async function arrive(ticket: SocketTicket, request: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    if (ticket.answer !== undefined) return accept(ticket.answer, ticket.url, request, socket, head);
    const outcome = await ticket.decide!(handshakeHeaders(request)).catch((error: unknown) => ({ kind: 'fail' as const, error: error as Error }));
    if (outcome.kind === 'socket') return accept(outcome.socket, ticket.url, request, socket, head);
    if (outcome.kind === 'pass') return ticket.passThrough!(socket, head, request);
    const error = outcome.kind === 'fail' ? outcome.error : new Error(`[scenario-harness] The upgrade ${ticket.url.href} got an HTTP answer, which no WebSocket client can take.`);
    // A client with no way to be told (a global WebSocket) gets the reason in a refusal it can log.
    if (ticket.fail === undefined) return void socket.end(`HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${error.message}`);
    socket.destroy();
    ticket.fail(error);
  }

  const server = createServer((_req, res) => res.writeHead(404).end());
  // Its own `emit`: scenario-harness/node scopes every server's requests by wrapping the prototype's, and this one is not the app's.
  server.emit = process.getBuiltinModule('node:events').EventEmitter.prototype.emit as typeof server.emit;
  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const id = request.headers[SOCKET_TICKET_HEADER] ?? (request.url?.startsWith(SOCKET_TICKET_PATH) ? request.url.slice(SOCKET_TICKET_PATH.length) : undefined);
    const held = typeof id === 'string' ? tickets.get(id) : undefined;
    if (held === undefined) return void socket.end('HTTP/1.1 421 Misdirected Request\r\nconnection: close\r\n\r\n');
    tickets.delete(id as string);
    clearTimeout(held.timer);
    socket.on('error', () => {});
    arrive(held.ticket, request, socket, head).catch((error: unknown) => {
      report(`A WebSocket the harness answers (${held.ticket.url.href}) failed in its handshake: ${(error as Error).message}`);
      socket.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  // The bridge must never keep the app alive.
  server.unref();
  const { port } = server.address() as { port: number };
  return {
    host: `127.0.0.1:${port}`,
    port,
    expect(ticket) {
      const id = randomUUID();
      const timer = setTimeout(() => tickets.delete(id), TICKET_TTL_MS);
      timer.unref();
      tickets.set(id, { ticket, timer });
      return id;
    },
    stop() {
      for (const { timer } of tickets.values()) clearTimeout(timer);
      tickets.clear();
      for (const client of wss?.clients ?? []) client.terminate();
      wss?.close();
      server.close();
      server.closeAllConnections?.();
    },
  };
}
