import { connect, type Socket } from 'node:net';
import { HarnessError, type HarnessErrorCode } from '../../errors.js';
import type { SessionStore } from '../session-store.js';
import { isProofOf, newNonce, proofOf } from './prove-secret.js';
import { GREETING_MAX_BYTES, GREETING_TIMEOUT_MS, MAX_LINE_BYTES, readFromHost, REMOTE_METHODS, SESSION_HOST_VARIABLE, type FromHost, type RemoteMethod, type ToHost } from './protocol.js';
import { readLines } from './read-lines.js';

/** How long one call may wait for the host: a host that stopped answering fails the call (503 on the control API), never hangs it. */
const CALL_TIMEOUT_MS = 10_000;

/** One connection to the host: what it holds back until the host proved it holds the secret. */
interface Link {
  socket: Socket;
  proven: boolean;
  /** Lines (calls, pins) written before the host's proof arrived: sent only once it did. */
  held: string[];
}

interface Pending {
  link: Link;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export interface JoinSessionsOptions {
  /** How long the host has to prove it holds the secret. @default GREETING_TIMEOUT_MS */
  greetingTimeoutMs?: number;
}

/** The parts of `127.0.0.1:<port>/<secret>`, or an error that names the variable. */
export function parseHostAddress(address: string): { host: string; port: number; secret: string } {
  const parts = /^(127\.0\.0\.1):(\d{1,5})\/([0-9a-f]{16,})$/.exec(address);
  if (parts === null) {
    throw new HarnessError(
      'INVALID_OPTIONS',
      `${SESSION_HOST_VARIABLE} is ${JSON.stringify(address)}, which is not an address register wrote. It is set by the first process under scenario-harness/register for the processes it starts; unset it.`,
    );
  }
  return { host: parts[1]!, port: Number(parts[2]), secret: parts[3]! };
}

const line = (message: ToHost) => `${JSON.stringify(message)}\n`;

const NOT_THE_HOST = 'the program listening there did not prove that it holds the session secret, so it is not that process (another program may have taken the port after the first process exited); nothing was sent to it';

/**
 * A `SessionStore` that is the host's (see `hostSessions`): every method is one round trip on
 * one loopback connection, so the processes of a tree see one switch, one state, one sequence
 * order and one journal. The connection holds the process open only while a call waits.
 *
 * Each connection starts with a challenge both ways (see `proofOf`): the host must prove it holds
 * the secret before this process sends anything but its own challenge, so a program that took
 * the port gets neither the secret nor a call. Whatever the other end sends, a call fails as
 * `STORE_UNAVAILABLE` at worst; nothing it sends can throw in this process.
 */
export function joinSessions(address: string, { greetingTimeoutMs = GREETING_TIMEOUT_MS }: JoinSessionsOptions = {}): SessionStore & { close(): Promise<void> } {
  const { host, port, secret } = parseHostAddress(address);
  const pending = new Map<number, Pending>();
  let link: Link | undefined;
  let nextId = 1;
  let nextPin = 1;

  const unavailable = (reason: string) =>
    new HarnessError(
      'STORE_UNAVAILABLE',
      `Failed to reach the test sessions this process shares with the first process under scenario-harness/register (${host}:${port}): ${reason}. That process hosts them for every process it starts; it may have exited.`,
    );

  const failAll = (of: Link, reason: string) => {
    for (const [id, call] of pending) {
      if (call.link !== of) continue;
      clearTimeout(call.timer);
      pending.delete(id);
      call.reject(unavailable(reason));
    }
  };

  const holdOpen = () => {
    // Idle, the connection must not keep the process alive; with a call waiting, it must.
    if (pending.size > 0) link?.socket.ref();
    else link?.socket.unref();
  };

  const settle = (message: Exclude<FromHost, { nonce: string }>) => {
    const call = pending.get(message.id);
    if (call === undefined) return;
    pending.delete(message.id);
    clearTimeout(call.timer);
    holdOpen();
    if ('error' in message) call.reject(new HarnessError((message.code as HarnessErrorCode | undefined) ?? 'STORE_UNAVAILABLE', message.error));
    else call.resolve(message.result);
  };

  const open = (): Link => {
    const socket = connect({ host, port });
    const opened: Link = { socket, proven: false, held: [] };
    const childNonce = newNonce();
    let why: string | undefined;
    const drop = (reason: string) => {
      why ??= reason;
      socket.destroy();
    };
    const deadline = setTimeout(() => drop(`no proof that it is that process within ${greetingTimeoutMs / 1000} s`), greetingTimeoutMs).unref();
    socket.setNoDelay(true);
    socket.unref();
    socket.write(line({ hello: childNonce }));
    socket.on('error', (error) => (why ??= error.message));
    socket.on('close', () => {
      clearTimeout(deadline);
      opened.held = [];
      if (link === opened) link = undefined;
      failAll(opened, why ?? 'the connection closed');
    });
    readLines(socket, {
      maxBytes: () => (opened.proven ? MAX_LINE_BYTES : GREETING_MAX_BYTES),
      onRefused: (reason) => drop(opened.proven ? `the host sent ${reason}` : NOT_THE_HOST),
      onLine: (text) => {
        const message = readFromHost(text);
        if (opened.proven) {
          if (message === undefined || 'nonce' in message) drop('the host sent a line that is not an answer');
          else settle(message);
          return;
        }
        if (message === undefined || !('nonce' in message) || !isProofOf(message.proof, secret, 'host', childNonce, message.nonce)) return drop(NOT_THE_HOST);
        opened.proven = true;
        clearTimeout(deadline);
        socket.write(line({ proof: proofOf(secret, 'child', childNonce, message.nonce) }) + opened.held.join(''));
        opened.held = [];
      },
    });
    return opened;
  };

  const connection = (): Link => {
    if (link === undefined || link.socket.destroyed) link = open();
    return link;
  };

  const send = (to: Link, message: ToHost) => {
    if (to.socket.destroyed) return;
    if (to.proven) to.socket.write(line(message));
    else to.held.push(line(message));
  };

  const call = (method: RemoteMethod, args: unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const to = connection();
      const timer = setTimeout(() => {
        pending.delete(id);
        holdOpen();
        reject(unavailable(`no answer to ${method} within ${CALL_TIMEOUT_MS / 1000} s`));
      }, CALL_TIMEOUT_MS);
      timer.unref();
      pending.set(id, { link: to, resolve, reject, timer });
      send(to, { id, method, args });
      holdOpen();
    });

  const store = Object.fromEntries(REMOTE_METHODS.map((method) => [method, (...args: unknown[]) => call(method, args)])) as unknown as SessionStore;
  return Object.assign(store, {
    pin(testId: string): () => void {
      const pin = nextPin++;
      const to = connection();
      send(to, { pin, testId });
      // A pin lives on its connection: the host releases it when that connection closes.
      return () => send(to, { unpin: pin });
    },
    close: async () => {
      link?.socket.destroy();
      link = undefined;
    },
  });
}
