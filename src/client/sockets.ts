import { setTimeout as delay } from 'node:timers/promises';
import { quote } from '../core/dev-utils.js';
import { HarnessError } from '../core/errors.js';
import type { JournalEntry } from '../core/journal/journal-entry.js';
import type { SocketFrame, SocketMatch } from '../core/types.js';
import type { ControlConnection } from './control-connection.js';
import { socketUrlMatcher } from '../core/engine/sockets/socket-url-matcher.js';
import { compileFrameMatch } from './frame-match.js';
import { isRecord } from './is-record.js';

/*
 * Sockets: the test's hand on the WebSockets its socket mocks answer (push a frame, close them)
 * and what the journal says went over them (`expectSent`, `waitForFrame`).
 */

export interface ExpectSentOptions {
  /** How many frames must match, exactly. @default at least one */
  times?: number;
}

export interface WaitForFrameOptions {
  /** Only frames the app sent (`'sent'`) or got (`'received'`). @default either */
  direction?: 'sent' | 'received';
  /** Milliseconds to keep polling the journal. @default 5000 */
  timeout?: number;
  /** Milliseconds between two reads of the journal. @default 50 */
  interval?: number;
}

async function act(connection: ControlConnection, body: Record<string, unknown>, what: string): Promise<number> {
  const action = `${what} test ${quote(connection.testId)}'s sockets of ${body.url as string}`;
  const response = await connection.send(action, 'POST', connection.endpoints.sockets, body);
  if (response.status !== 200 || !isRecord(response.body) || typeof response.body.sockets !== 'number') connection.fail(action, 'POST', connection.endpoints.sockets, response);
  return (response.body as { sockets: number }).sockets;
}

export const sendToSocket = (connection: ControlConnection, url: string, data: SocketFrame) => act(connection, { url, action: 'send', data }, 'push a frame to');
export const closeSocket = (connection: ControlConnection, url: string, code?: number, reason?: string) =>
  act(connection, { url, action: 'close', ...(code === undefined ? {} : { code }), ...(reason === undefined ? {} : { reason }) }, 'close');

/** The socket frames of the journal on `url` (the socket's URL, or a pattern as a socket mock's, as `sendToSocket` takes it). */
function framesOn(entries: readonly JournalEntry[], url: string, direction: 'sent' | 'received' | undefined, where: string): JournalEntry[] {
  const matches = socketUrlMatcher(url);
  if (typeof matches === 'string') throw new HarnessError('INVALID_ARGUMENT', `Invalid URL for ${where}: ${matches}.`);
  return entries.filter((entry) => entry.kind === 'socket.frame' && matches(entry.url) && (direction === undefined || entry.socket?.direction === direction));
}

async function readCalls(connection: ControlConnection, action: string): Promise<JournalEntry[]> {
  const response = await connection.send(action, 'GET', connection.endpoints.journal);
  if (response.status !== 200 || !isRecord(response.body) || !Array.isArray(response.body.calls)) connection.fail(action, 'GET', connection.endpoints.journal, response);
  return (response.body as { calls: JournalEntry[] }).calls;
}

function describeFrames(frames: readonly JournalEntry[]): string {
  if (frames.length === 0) return 'No frame went over it.';
  return `Frames on it (oldest first):\n${frames.map((entry) => `  ${entry.socket?.direction === 'sent' ? '→' : '←'} ${entry.socket?.opcode} ${entry.socket?.data ?? ''}${entry.socket?.dataTruncated ? ' (cut)' : ''}`).join('\n')}`;
}

export async function expectSent(connection: ControlConnection, url: string, match: SocketMatch, options: ExpectSentOptions = {}): Promise<JournalEntry[]> {
  const compiled = compileFrameMatch(match, 'expectSent()');
  const { times } = options;
  if (times !== undefined && (!Number.isSafeInteger(times) || times < 0)) {
    throw new HarnessError('INVALID_ARGUMENT', `Invalid options for expectSent(): expected "times" to be a whole number of 0 or more, instead got ${JSON.stringify(times) ?? typeof times}.`);
  }
  const frames = framesOn(await readCalls(connection, `read the calls of test ${quote(connection.testId)}`), url, 'sent', 'expectSent()');
  const matched = frames.filter((entry) => compiled.test(entry));
  const wanted = times === undefined ? 'at least once' : times === 0 ? 'never' : times === 1 ? 'exactly once' : `exactly ${times} times`;
  if (times === undefined ? matched.length > 0 : matched.length === times) return matched;
  throw new Error(`Expected test ${quote(connection.testId)} to send ${compiled.description} on ${url} ${wanted}, but it sent ${matched.length === 0 ? 'none' : matched.length}.\n${describeFrames(frames)}`);
}

export async function waitForFrame(connection: ControlConnection, url: string, match: SocketMatch, options: WaitForFrameOptions = {}): Promise<JournalEntry> {
  const compiled = compileFrameMatch(match, 'waitForFrame()');
  const { direction, timeout = 5000, interval = 50 } = options;
  const action = `wait for ${compiled.description} on ${url} for test ${quote(connection.testId)}`;
  const started = Date.now();
  for (;;) {
    const frames = framesOn(await readCalls(connection, action), url, direction, 'waitForFrame()');
    const found = frames.find((entry) => compiled.test(entry));
    if (found !== undefined) return found;
    const remaining = started + timeout - Date.now();
    if (remaining <= 0) throw new Error(`Failed to ${action}: none within ${timeout} ms.\n${describeFrames(frames)}`);
    await delay(Math.min(interval, remaining));
  }
}
