import type { SessionStore } from '../session-store.js';

/**
 * Every `SessionStore` method but the two a joined store keeps to itself: `pin` (sent without an
 * answer: the harness pins synchronously around a call) and `close` (its own connection).
 */
type RemoteMethodName = Exclude<keyof SessionStore, 'pin' | 'close'>;

/**
 * One key per remote method: a method added to `SessionStore` and missing here fails the
 * typecheck, so a store method can never again be silently missing in the processes of a tree
 * (a test's own mocks once were: `use()` answered in one process and was ignored in another).
 */
const REMOTE: { readonly [Method in RemoteMethodName]-?: true } = {
  read: true,
  activate: true,
  advanceSequence: true,
  updateState: true,
  end: true,
  appendCall: true,
  readCalls: true,
  clearCalls: true,
  listSessions: true,
  setRecording: true,
  appendRecorded: true,
  readRecorded: true,
  addMocks: true,
  readMocks: true,
  resetMocks: true,
  putStreamView: true,
  readStreamViews: true,
  sendStreamCommand: true,
  takeStreamCommands: true,
};

/** The store methods a process of the tree calls on the host's store, one line of JSON each way. */
export const REMOTE_METHODS = Object.keys(REMOTE) as RemoteMethodName[];

export type RemoteMethod = RemoteMethodName;

/**
 * A process of the tree to the host. First the greeting: `hello` with the child's challenge;
 * then, once the host proved it holds the secret, `proof` (the child's answer to the host's
 * challenge). Only then calls, pins and unpins.
 */
export type ToHost =
  | { hello: string }
  | { proof: string }
  | { id: number; method: RemoteMethod; args: unknown[] }
  | { pin: number; testId: string }
  | { unpin: number };

/** The host to a process of the tree: first its challenge and its proof, then one answer per call (its result, or the error's message and code). */
export type FromHost = { nonce: string; proof: string } | { id: number; result?: unknown } | { id: number; error: string; code?: string };

/**
 * The environment variable that carries the host's address (`127.0.0.1:<port>/<secret>`) to the
 * processes the host's process starts; they inherit it, as they inherit `NODE_OPTIONS`.
 */
export const SESSION_HOST_VARIABLE = 'HARNESS_SESSION_HOST';

/** A greeting line longer than this ends the connection: a greeting is about 100 bytes, and an unproven peer gets no more. */
export const GREETING_MAX_BYTES = 1024;

/** How long a peer has to complete the greeting (both proofs) before the connection ends: one loopback round trip takes well under a millisecond. */
export const GREETING_TIMEOUT_MS = 5_000;

/** After the greeting, a line longer than this (a journal entry holds bodies bounded by `maxBodyBytes`) ends the connection. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

const METHODS = new Set<string>(REMOTE_METHODS);
const HEX_256 = /^[0-9a-f]{64}$/;

function parseRecord(line: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

const isHex256 = (value: unknown): value is string => typeof value === 'string' && HEX_256.test(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value);

/**
 * A line from a process of the tree, or `undefined` when it is not one of the messages it may
 * send (not JSON, not an object, a field of the wrong type, an unknown method): the host then
 * closes that connection. Checked by hand, field by field: this runs for every call.
 */
export function readToHost(line: string): ToHost | undefined {
  const message = parseRecord(line);
  if (message === undefined) return undefined;
  if (isHex256(message.hello)) return { hello: message.hello };
  if (isHex256(message.proof)) return { proof: message.proof };
  if (isCount(message.id) && typeof message.method === 'string' && METHODS.has(message.method) && Array.isArray(message.args)) {
    return { id: message.id, method: message.method as RemoteMethod, args: message.args as unknown[] };
  }
  if (isCount(message.pin) && typeof message.testId === 'string') return { pin: message.pin, testId: message.testId };
  if (isCount(message.unpin)) return { unpin: message.unpin };
  return undefined;
}

/** A line from the host, or `undefined` when it is not one the host sends: the process then closes the connection. */
export function readFromHost(line: string): FromHost | undefined {
  const message = parseRecord(line);
  if (message === undefined) return undefined;
  if (isHex256(message.nonce) && isHex256(message.proof)) return { nonce: message.nonce, proof: message.proof };
  if (!isCount(message.id)) return undefined;
  if (!Object.hasOwn(message, 'error')) return { id: message.id, result: message.result };
  if (typeof message.error !== 'string' || (message.code !== undefined && typeof message.code !== 'string')) return undefined;
  return message.code === undefined ? { id: message.id, error: message.error } : { id: message.id, error: message.error, code: message.code };
}
