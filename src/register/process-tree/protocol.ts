import type { SessionStore } from '../../core/store/session-store.js';

/**
 * The store methods a process of the tree may call on the host's store, one line of JSON each
 * way. `pin` is sent without an answer (the harness pins synchronously around a call).
 */
export const REMOTE_METHODS = [
  'read',
  'activate',
  'advanceSequence',
  'updateState',
  'end',
  'appendCall',
  'readCalls',
  'clearCalls',
  'listSessions',
  'setRecording',
  'appendRecorded',
  'readRecorded',
] as const satisfies readonly (keyof SessionStore)[];

export type RemoteMethod = (typeof REMOTE_METHODS)[number];

/** A process of the tree to the host: first the secret, then calls, pins and unpins. */
export type ToHost =
  | { hello: string }
  | { id: number; method: RemoteMethod; args: unknown[] }
  | { pin: number; testId: string }
  | { unpin: number };

/** The host's answer to one call: its result, or the error's message and code. */
export type FromHost = { id: number; result?: unknown } | { id: number; error: string; code?: string };

/**
 * The environment variable that carries the host's address (`127.0.0.1:<port>/<secret>`) to the
 * processes the host's process starts; they inherit it, as they inherit `NODE_OPTIONS`.
 */
export const SESSION_HOST_VARIABLE = 'HARNESS_SESSION_HOST';

/** A line longer than this (a journal entry holds bodies bounded by `maxBodyBytes`) ends the connection. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Calls `onLine` with each complete line `socket` receives, keeping a partial line between
 * chunks; `onTooLong` when a line outgrows `MAX_LINE_BYTES`.
 */
export function readLines(socket: NodeJS.ReadableStream, onLine: (line: string) => void, onTooLong: () => void): void {
  let pending = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line !== '') onLine(line);
      newline = pending.indexOf('\n');
    }
    if (pending.length > MAX_LINE_BYTES) {
      pending = '';
      onTooLong();
    }
  });
}
