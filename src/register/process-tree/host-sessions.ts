import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import type { SessionStore } from '../../core/store/session-store.js';
import { readLines, REMOTE_METHODS, type FromHost, type RemoteMethod, type ToHost } from './protocol.js';

/** The sessions one process serves to the processes it starts. */
export interface SessionHost {
  /** `127.0.0.1:<port>/<secret>`: what a process of the tree passes to `joinSessions`. */
  address: string;
  close(): Promise<void>;
}

const METHODS = new Set<string>(REMOTE_METHODS);

function sameSecret(given: unknown, secret: Buffer): boolean {
  if (typeof given !== 'string') return false;
  const bytes = Buffer.from(given);
  return bytes.length === secret.length && timingSafeEqual(bytes, secret);
}

/** Answer one connection: its first line must be the secret, then every line is a call, a pin or an unpin. */
function serveConnection(socket: Socket, store: SessionStore, secret: Buffer): void {
  // The host is the app's own process: a child still connected must not keep it running.
  socket.unref();
  socket.setNoDelay(true);
  let greeted = false;
  const pins = new Map<number, () => void>();
  const answer = (message: FromHost) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
  };
  socket.on('close', () => {
    for (const release of pins.values()) release();
    pins.clear();
  });
  socket.on('error', () => socket.destroy());
  readLines(
    socket,
    (line) => {
      let message: ToHost;
      try {
        message = JSON.parse(line) as ToHost;
      } catch {
        socket.destroy();
        return;
      }
      if (!greeted) {
        // Anything but the secret first: not a process of this tree. Close without a word.
        if ('hello' in message && sameSecret(message.hello, secret)) greeted = true;
        else socket.destroy();
        return;
      }
      if ('pin' in message) {
        pins.set(message.pin, store.pin?.(message.testId) ?? (() => {}));
      } else if ('unpin' in message) {
        pins.get(message.unpin)?.();
        pins.delete(message.unpin);
      } else if ('method' in message && METHODS.has(message.method) && Array.isArray(message.args)) {
        const { id, method, args } = message;
        const call = store[method as RemoteMethod] as ((...values: unknown[]) => Promise<unknown>) | undefined;
        if (call === undefined) {
          answer({ id, error: `the session store of the first process does not support ${method}` });
          return;
        }
        // JSON has no undefined: an argument left out (a generation, a cursor, a mode) arrives as
        // null, which no store method takes at the top level.
        call.apply(store, args.map((arg: unknown) => (arg === null ? undefined : arg))).then(
          (result) => answer({ id, result }),
          (error: unknown) => answer({ id, error: error instanceof Error ? error.message : String(error), code: (error as { code?: string }).code }),
        );
      } else {
        socket.destroy();
      }
    },
    () => socket.destroy(),
  );
}

/**
 * Serve `store` to the processes this one starts (a framework CLI's server process, a dev
 * server's workers), so a whole process tree under register holds one set of sessions: a switch
 * answered by one process is what a call made in another is answered from. On loopback only,
 * behind a random secret the children inherit through the environment.
 */
export function hostSessions(store: SessionStore): Promise<SessionHost> {
  const secret = randomBytes(24).toString('hex');
  const secretBytes = Buffer.from(secret);
  const server = createServer((socket) => serveConnection(socket, store, secretBytes));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      const { port } = server.address() as { port: number };
      resolve({
        address: `127.0.0.1:${port}/${secret}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
