import { connect, type Socket } from 'node:net';
import { HarnessError, type HarnessErrorCode } from '../../core/errors.js';
import type { SessionStore } from '../../core/store/session-store.js';
import { readLines, REMOTE_METHODS, SESSION_HOST_VARIABLE, type FromHost, type RemoteMethod, type ToHost } from './protocol.js';

/** How long one call may wait for the host: a host that stopped answering fails the call (503 on the control API), never hangs it. */
const CALL_TIMEOUT_MS = 10_000;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
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

/**
 * A `SessionStore` that is the host's (see `hostSessions`): every method is one round trip on
 * one loopback connection, so the processes of a tree see one switch, one state, one sequence
 * order and one journal. The connection holds the process open only while a call waits.
 */
export function joinSessions(address: string): SessionStore & { close(): Promise<void> } {
  const { host, port, secret } = parseHostAddress(address);
  const pending = new Map<number, Pending>();
  let socket: Socket | undefined;
  let nextId = 1;
  let nextPin = 1;

  const unavailable = (reason: string) =>
    new HarnessError(
      'STORE_UNAVAILABLE',
      `Failed to reach the test sessions this process shares with the first process under scenario-harness/register (${host}:${port}): ${reason}. That process hosts them for every process it starts; it may have exited.`,
    );

  const failAll = (reason: string) => {
    for (const call of pending.values()) {
      clearTimeout(call.timer);
      call.reject(unavailable(reason));
    }
    pending.clear();
  };

  const holdOpen = () => {
    // Idle, the connection must not keep the process alive; with a call waiting, it must.
    if (pending.size > 0) socket?.ref();
    else socket?.unref();
  };

  const connection = (): Socket => {
    if (socket !== undefined && !socket.destroyed) return socket;
    const opened = connect({ host, port });
    opened.setNoDelay(true);
    opened.unref();
    opened.write(`${JSON.stringify({ hello: secret } satisfies ToHost)}\n`);
    opened.on('error', (error) => failAll(error.message));
    opened.on('close', () => {
      if (socket === opened) socket = undefined;
      failAll('the connection closed');
    });
    readLines(
      opened,
      (line) => {
        const message = JSON.parse(line) as FromHost;
        const call = pending.get(message.id);
        if (call === undefined) return;
        pending.delete(message.id);
        clearTimeout(call.timer);
        holdOpen();
        if ('error' in message) call.reject(new HarnessError((message.code as HarnessErrorCode | undefined) ?? 'STORE_UNAVAILABLE', message.error));
        else call.resolve(message.result);
      },
      () => opened.destroy(),
    );
    socket = opened;
    return opened;
  };

  const send = (message: ToHost) => connection().write(`${JSON.stringify(message)}\n`);

  const call = (method: RemoteMethod, args: unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        holdOpen();
        reject(unavailable(`no answer to ${method} within ${CALL_TIMEOUT_MS / 1000} s`));
      }, CALL_TIMEOUT_MS);
      timer.unref();
      pending.set(id, { resolve, reject, timer });
      send({ id, method, args });
      holdOpen();
    });

  const store = Object.fromEntries(REMOTE_METHODS.map((method) => [method, (...args: unknown[]) => call(method, args)])) as unknown as SessionStore;
  return Object.assign(store, {
    pin(testId: string): () => void {
      const pin = nextPin++;
      send({ pin, testId });
      return () => {
        if (socket !== undefined && !socket.destroyed) send({ unpin: pin });
      };
    },
    close: async () => {
      socket?.destroy();
      socket = undefined;
    },
  });
}
