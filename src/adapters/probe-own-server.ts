import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

/** Where a server of this process listens, as a client reaches it. */
export interface OwnServerAddress {
  /** TCP: the local address and port a request came in on. */
  host?: string;
  port?: number;
  /** A Unix socket's path, for a server that listens on one. */
  socketPath?: string;
  /** The server speaks TLS (a node:https server). */
  tls: boolean;
}

export interface OwnServerRequest {
  /** The path and query to ask for, already checked (printable ASCII, no spaces). */
  path: string;
  /** The `Host` header: the one the control request came with, so the app's host checks see what its clients send. */
  host: string;
  /** Extra request headers (the probe's test ID). */
  headers: Record<string, string>;
  /** The socket is dropped after this long, answered or not. */
  timeoutMs: number;
}

/** The status the server answered with, or why there was none. */
export type ProbeOutcome = { status: number } | { error: string };

/** Most a response head may take before the probe gives up on it. */
const MAX_HEAD = 64 * 1024;

/**
 * GET a path from one of this process's own servers, written by hand on a plain socket: below
 * every layer the harness intercepts (fetch, undici, node:http's client), so no mock can answer
 * it, no journal records it, and the app's server sees an ordinary request. Resolves with the
 * final status (informational 1xx answers skipped) as soon as it arrives; the rest of the answer
 * is read and dropped, so the server finishes it undisturbed.
 */
export function probeOwnServer(address: OwnServerAddress, request: OwnServerRequest): Promise<ProbeOutcome> {
  return new Promise((resolve) => {
    const target = address.socketPath === undefined ? { host: address.host, port: address.port } : { path: address.socketPath };
    // The server is this process's own: its certificate is whatever the app configured.
    const socket: Socket = address.tls ? connectTls({ ...target, rejectUnauthorized: false }) : connectTcp(target as { host: string; port: number });
    socket.unref();
    let settled = false;
    const settle = (outcome: ProbeOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      settle({ error: `no answer within ${request.timeoutMs / 1000} s` });
      socket.destroy();
    }, request.timeoutMs);
    timer.unref();
    let head = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      if (settled) return;
      head += chunk;
      for (;;) {
        const end = head.indexOf('\r\n\r\n');
        if (end === -1) {
          if (head.length > MAX_HEAD) {
            settle({ error: `the answer's head is longer than ${MAX_HEAD} bytes` });
            socket.destroy();
          }
          return;
        }
        const status = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
        if (status === undefined) {
          settle({ error: `the answer is not HTTP/1.1 (${JSON.stringify(head.slice(0, 40))})` });
          socket.destroy();
          return;
        }
        // 103 Early Hints and the like come before the answer itself.
        if (status.startsWith('1')) {
          head = head.slice(end + 4);
          continue;
        }
        settle({ status: Number(status) });
        head = '';
        return;
      }
    });
    socket.on('error', (error) => settle({ error: error.message }));
    socket.on('close', () => {
      clearTimeout(timer);
      settle({ error: 'the connection closed before an answer came' });
    });
    const lines = [`GET ${request.path} HTTP/1.1`, `Host: ${request.host}`, 'Accept: text/html,*/*;q=0.8', 'User-Agent: scenario-harness ready check', ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`), 'Connection: close'];
    // @note Written, not ended: a node:http server that sees the client's side close aborts the
    // request (`httpAllowHalfOpen` is off by default). `Connection: close` has the server end it.
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}
