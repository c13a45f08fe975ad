import { randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { HarnessError } from '../../errors.js';
import type { SessionStore } from '../session-store.js';
import { isProofOf, newNonce, proofOf } from './prove-secret.js';
import { GREETING_MAX_BYTES, GREETING_TIMEOUT_MS, MAX_LINE_BYTES, readToHost, type FromHost, type RemoteMethod, type ToHost } from './protocol.js';
import { readLines } from './read-lines.js';

/** The sessions one process serves to the processes it starts. */
export interface SessionHost {
  /** `127.0.0.1:<port>/<secret>`: what a process of the tree passes to `joinSessions`. */
  address: string;
  close(): Promise<void>;
}

export interface HostSessionsOptions {
  /** The loopback port to listen on (`HARNESS_SESSION_PORT`); a free one when omitted. */
  port?: number;
  /** How long a connection has to complete the greeting. @default GREETING_TIMEOUT_MS */
  greetingTimeoutMs?: number;
}

/** Where a connection is: waiting for the child's challenge, for its proof, or proven. */
type Stage = { waiting: 'hello' } | { waiting: 'proof'; childNonce: string; hostNonce: string } | { waiting: 'calls' };

/** The line that answers a call; a result JSON cannot carry (a store bug) becomes an error answer, never an exception. */
function encodeAnswer(message: FromHost): string {
  try {
    return `${JSON.stringify(message)}\n`;
  } catch (error) {
    return `${JSON.stringify({ id: (message as { id: number }).id, error: `the host could not send the result: ${(error as Error).message}` } satisfies FromHost)}\n`;
  }
}

/** Run one call on the host's store: its result or its error, as the line that answers it. */
function runCall(store: SessionStore, id: number, method: RemoteMethod, args: unknown[]): Promise<FromHost> {
  const call = store[method] as ((...values: unknown[]) => Promise<unknown>) | undefined;
  if (call === undefined) {
    return Promise.resolve({
      id,
      error: `Failed to ${method} in the test sessions of the first process under scenario-harness/register (process ${process.pid}): its session store has no ${method} method. Give that process a store that has it (the memory store and the Redis store have every method).`,
      code: 'STORE_UNAVAILABLE',
    });
  }
  // JSON has no undefined: an argument left out (a generation, a cursor, a mode) arrives as
  // null, which no store method takes at the top level. A store method that throws at once
  // (arguments it cannot take) fails the call, like one that rejects.
  return new Promise<unknown>((resolve) => resolve(call.apply(store, args.map((arg) => (arg === null ? undefined : arg))))).then(
    (result) => ({ id, result }),
    (error: unknown) => {
      const code = (error as { code?: unknown } | null | undefined)?.code;
      return { id, error: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) };
    },
  );
}

/**
 * Answer one connection. Until both sides proved they hold the secret (the greeting), a line
 * may have `GREETING_MAX_BYTES` and the whole greeting `greetingTimeoutMs`; anything else ends
 * the connection without a word. After it, every line is a call, a pin or an unpin. A line
 * that is not one of those ends that connection, and only that one.
 */
function serveConnection(socket: Socket, store: SessionStore, secret: string, greetingTimeoutMs: number): void {
  // The host is the app's own process: a child still connected must not keep it running.
  socket.unref();
  socket.setNoDelay(true);
  let stage: Stage = { waiting: 'hello' };
  const pins = new Map<number, () => void>();
  const deadline = setTimeout(() => socket.destroy(), greetingTimeoutMs).unref();
  const send = (message: FromHost) => {
    if (!socket.destroyed) socket.write(encodeAnswer(message));
  };
  socket.on('close', () => {
    clearTimeout(deadline);
    for (const release of pins.values()) release();
    pins.clear();
  });
  socket.on('error', () => socket.destroy());

  const greet = (message: ToHost) => {
    if (stage.waiting === 'hello' && 'hello' in message) {
      const hostNonce = newNonce();
      stage = { waiting: 'proof', childNonce: message.hello, hostNonce };
      send({ nonce: hostNonce, proof: proofOf(secret, 'host', message.hello, hostNonce) });
    } else if (stage.waiting === 'proof' && 'proof' in message && isProofOf(message.proof, secret, 'child', stage.childNonce, stage.hostNonce)) {
      stage = { waiting: 'calls' };
      clearTimeout(deadline);
    } else {
      socket.destroy();
    }
  };

  readLines(socket, {
    maxBytes: () => (stage.waiting === 'calls' ? MAX_LINE_BYTES : GREETING_MAX_BYTES),
    onRefused: () => socket.destroy(),
    onLine: (line) => {
      const message = readToHost(line);
      if (message === undefined) socket.destroy();
      else if (stage.waiting !== 'calls') greet(message);
      else if ('method' in message) void runCall(store, message.id, message.method, message.args).then(send);
      else if ('pin' in message) {
        pins.get(message.pin)?.();
        pins.set(message.pin, store.pin?.(message.testId) ?? (() => {}));
      } else if ('unpin' in message) {
        pins.get(message.unpin)?.();
        pins.delete(message.unpin);
      } else socket.destroy();
    },
  });
}

/** `listen` on loopback, failing with what to do when `HARNESS_SESSION_PORT` names a port that is taken. */
function listen(server: ReturnType<typeof createServer>, port: number | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (port === undefined) return reject(error);
      const why = error.code === 'EADDRINUSE' ? 'another program listens on it' : error.message;
      reject(new HarnessError('INVALID_OPTIONS', `Failed to serve the test sessions on 127.0.0.1:${port} (HARNESS_SESSION_PORT): ${why}. Choose a free port, or unset HARNESS_SESSION_PORT to take any free one.`, { cause: error }));
    });
    server.listen(port ?? 0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

/**
 * Serve `store` to the processes this one starts (a framework CLI's server process, a dev
 * server's workers), so a whole process tree under register holds one set of sessions: a switch
 * answered by one process is what a call made in another is answered from. On loopback only,
 * behind a random secret the children inherit through the environment and never send: each
 * connection starts with both sides proving they hold it (see `proofOf`).
 */
export async function hostSessions(store: SessionStore, { port, greetingTimeoutMs = GREETING_TIMEOUT_MS }: HostSessionsOptions = {}): Promise<SessionHost> {
  const secret = randomBytes(24).toString('hex');
  const server = createServer((socket) => serveConnection(socket, store, secret, greetingTimeoutMs));
  const listening = await listen(server, port);
  server.unref();
  return {
    address: `127.0.0.1:${listening}/${secret}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
