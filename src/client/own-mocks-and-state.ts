import { setTimeout as delay } from 'node:timers/promises';
import { quote } from '../core/dev-utils.js';
import type { TestState } from '../core/store/session-store.js';
import { toPlainMocks } from '../core/test-mocks/to-plain-mocks.js';
import type { Mock, SocketMock } from '../core/types.js';
import type { ControlConnection } from './control-connection.js';
import { describeError } from './describe-error.js';
import { isRecord } from './is-record.js';

/*
 * Own mocks and state: what one test adds on top of its scenario (mocks of its own) and the
 * state its mocks read and write (read it, wait for it, seed it).
 */

export interface WaitForStateOptions {
  /** Milliseconds to keep polling; `0` polls until the test runner's own timeout. @default 5000 */
  timeout?: number;
  /** One pause between polls, in milliseconds (instead of `intervals`). */
  interval?: number;
  /** Pauses between polls, in milliseconds; the last one repeats. @default [100, 250, 500, 1000] */
  intervals?: number[];
}

/** How much of the last state a `waitForState` timeout shows. */
const STATE_PREVIEW_LIMIT = 2000;

export function getState(connection: ControlConnection): Promise<TestState> {
  return readState(connection, `read the state of test ${quote(connection.testId)}`);
}

export async function waitForState(connection: ControlConnection, predicate: (state: TestState) => unknown, options: WaitForStateOptions = {}): Promise<TestState> {
  const { timeout = 5000, interval, intervals = interval === undefined ? [100, 250, 500, 1000] : [interval] } = options;
  const action = `wait for the state of test ${quote(connection.testId)}`;
  const started = Date.now();
  let predicateError: unknown;
  for (let poll = 1; ; poll += 1) {
    const state = await readState(connection, action);
    try {
      if (await predicate(state)) return state;
      predicateError = undefined;
    } catch (error) {
      // A predicate that throws (a key not there yet) means "not yet"; the last throw is shown on timeout.
      predicateError = error;
    }
    const remaining = timeout === 0 ? Infinity : started + timeout - Date.now();
    if (remaining <= 0) {
      const lastError = predicateError === undefined ? '' : ` The predicate last threw: ${describeError(predicateError)}.`;
      throw new Error(
        `Failed to ${action}: the predicate did not hold within ${timeout} ms (${poll} ${poll === 1 ? 'poll' : 'polls'}). Last state seen: ${previewState(state)}.${lastError} Check what the app's mocks write (harness.getState()) or raise { timeout }.`,
      );
    }
    await delay(Math.min(intervals[Math.min(poll - 1, intervals.length - 1)] ?? 100, remaining));
  }
}

export async function use(connection: ControlConnection, mocks: Mock[]): Promise<number> {
  const action = `add ${mocks.length} ${mocks.length === 1 ? 'mock' : 'mocks'} for test ${quote(connection.testId)}`;
  const response = await connection.send(action, 'POST', connection.endpoints.mocks, { mocks: toPlainMocks(mocks, refuseFunction) });
  if (response.status !== 200 || !isRecord(response.body) || typeof response.body.mocks !== 'number') connection.fail(action, 'POST', connection.endpoints.mocks, response);
  return (response.body as { mocks: number }).mocks;
}

/** Socket mocks of the test's own go through the same endpoint (`sockets` in its body) and bound. */
export async function useSockets(connection: ControlConnection, sockets: SocketMock[]): Promise<number> {
  const action = `add ${sockets.length} socket ${sockets.length === 1 ? 'mock' : 'mocks'} for test ${quote(connection.testId)}`;
  const response = await connection.send(action, 'POST', connection.endpoints.mocks, { sockets: toPlainMocks(sockets as unknown as Mock[], refuseFunction) });
  if (response.status !== 200 || !isRecord(response.body) || typeof response.body.sockets !== 'number') connection.fail(action, 'POST', connection.endpoints.mocks, response);
  return (response.body as { sockets: number }).sockets;
}

export async function resetMocks(connection: ControlConnection): Promise<void> {
  const action = `remove the mocks of test ${quote(connection.testId)}`;
  const response = await connection.send(action, 'DELETE', connection.endpoints.mocks);
  if (response.status !== 200) connection.fail(action, 'DELETE', connection.endpoints.mocks, response);
}

/** A `POST` on the state path merges; the app applies `afterResponse.setState`'s rules to it. */
export async function setState(connection: ControlConnection, state: Record<string, unknown>): Promise<TestState> {
  const action = `set the state of test ${quote(connection.testId)}`;
  const response = await connection.send(action, 'POST', connection.endpoints.getState, { state });
  if (response.status !== 200 || !isRecord(response.body) || !isRecord(response.body.state)) connection.fail(action, 'POST', connection.endpoints.getState, response);
  return (response.body as { state: TestState }).state;
}

async function readState(connection: ControlConnection, action: string): Promise<TestState> {
  const response = await connection.send(action, 'GET', connection.endpoints.getState);
  if (response.status !== 200 || !isRecord(response.body) || !isRecord(response.body.state)) {
    connection.fail(action, 'GET', connection.endpoints.getState, response);
  }
  return (response.body as { state: TestState }).state;
}

/** Why `use()` sends no response function. */
const refuseFunction = (field: string) =>
  `Failed to send the test's mocks: ${field} is a function. Mocks travel to the app as JSON, so a response function runs only when the app's own code adds it (harness.useMocks(testId, mocks) in the app's process); from a test, give the response as data (templates such as "{{params.id}}" and sequences cover most per-call answers).`;

function previewState(state: TestState): string {
  const json = JSON.stringify(state);
  return json.length > STATE_PREVIEW_LIMIT ? `${json.slice(0, STATE_PREVIEW_LIMIT)}… (${json.length} characters)` : json;
}
