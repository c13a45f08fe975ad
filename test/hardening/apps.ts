import express from 'express';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { Harness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { withHarness } from 'scenario-harness/node';

/** A hosting app for the hardening tests: the harness mounted, and one route of its own. */
export interface App {
  port: number;
  close(): Promise<void>;
}

export type AppKind = 'express, parser before' | 'express, parser after' | 'node:http';
export const APP_KINDS: readonly AppKind[] = ['express, parser before', 'express, parser after', 'node:http'];

async function listen(server: Server, harness: Harness): Promise<App> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      // The next app's harness must not take this one's sessions over (one harness answers per process).
      await harness.stop();
    },
  };
}

/** A node:http app on loopback whose every request runs as its test (`withHarness`) in `handler`; close() stops the harness too. */
export function startHandlerApp(harness: Harness, handler: Parameters<typeof withHarness>[1]): Promise<App> {
  return listen(createServer(withHarness(harness, handler)), harness);
}

/** Start an app of `kind` on loopback; every path but the control ones answers `{ app: true, testId }`. */
export function startApp(kind: AppKind, harness: Harness): Promise<App> {
  if (kind === 'node:http') {
    return listen(
      createServer(
        withHarness(harness, (_req, res) => {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ app: true, testId: harness.currentTestId() }));
        }),
      ),
      harness,
    );
  }
  const app = express();
  if (kind === 'express, parser before') app.use(express.json());
  app.use(harnessMiddleware(harness));
  if (kind === 'express, parser after') app.use(express.json());
  app.all('/{*path}', (_req, res) => void res.json({ app: true, testId: harness.currentTestId() }));
  return listen(createServer(app), harness);
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Send bytes exactly as given (malformed requests included) and read one response. With
 * `holdOpen`, the request is left unfinished: the response must come before the client ends.
 */
export function rawRequest(port: number, head: string, body: Buffer | string = '', { holdOpen = false } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const parse = (final: boolean) => {
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return final ? reject(new Error(`no response (got ${JSON.stringify(text)})`)) : undefined;
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const bodyBytes = received.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'));
      const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
      if (!final && (length === undefined || bodyBytes.length < length)) return;
      socket.destroy();
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: bodyBytes.subarray(0, length).toString('utf8') });
    };
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      parse(false);
    });
    socket.on('close', () => parse(true));
    socket.on('error', () => {}); // a reset after the response is fine; 'close' follows
    socket.write(head);
    socket.write(body);
    if (!holdOpen) socket.end();
  });
}

/** A request head with CRLFs, ending in the blank line. */
export function head(requestLine: string, headers: [string, string][]): string {
  return `${requestLine}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
}
