import { setTimeout as delay } from 'node:timers/promises';
import { quote } from '../core/dev-utils.js';
import { HarnessError } from '../core/errors.js';
import type { JournalEntry } from '../core/journal/journal-entry.js';
import { compileCallFilter, type CallFilter } from './compile-call-filter.js';
import type { ControlConnection } from './control-connection.js';
import { describeCall } from './describe-call.js';
import { describeCallsSeen } from './describe-calls-seen.js';
import { describeContractViolations } from './describe-contract-violations.js';
import { isRecord } from './is-record.js';

/*
 * Verification: what the app's journal says the test called (`calls`, `waitForCall`,
 * `expectCalled`), whether those calls kept their API documents (contracts), and emptying the
 * journal. Every failure names the calls seen, so a test's error says what happened instead.
 */

export interface WaitForCallOptions {
  /** Milliseconds to keep polling the journal; `0` polls until the test runner's own timeout. @default 5000 */
  timeout?: number;
  /** Milliseconds between two reads of the journal. @default 100 */
  interval?: number;
}

export interface ExpectCalledOptions {
  /** How many calls must match, exactly. @default at least one */
  times?: number;
}

export async function calls(connection: ControlConnection, filter: CallFilter = {}): Promise<JournalEntry[]> {
  const compiled = compileCallFilter(filter, 'calls()');
  return compiled.select(await readCalls(connection, `read the calls of test ${quote(connection.testId)}`));
}

export async function waitForCall(connection: ControlConnection, filter: CallFilter, options: WaitForCallOptions = {}): Promise<JournalEntry> {
  const compiled = compileCallFilter(filter, 'waitForCall()');
  const { timeout = 5000, interval = 100 } = options;
  checkDuration('waitForCall()', 'timeout', timeout, 0);
  checkDuration('waitForCall()', 'interval', interval, 1);
  const action = `wait for test ${quote(connection.testId)} to call ${compiled.description}`;
  const started = Date.now();
  for (let poll = 1; ; poll += 1) {
    const entries = await readCalls(connection, action);
    const [found] = compiled.select(entries);
    if (found !== undefined) return found;
    const remaining = timeout === 0 ? Infinity : started + timeout - Date.now();
    if (remaining <= 0) {
      throw new Error(`Failed to ${action}: no such call within ${timeout} ms (${poll} ${poll === 1 ? 'poll' : 'polls'}).\n${describeCallsSeen(entries, compiled)}`);
    }
    await delay(Math.min(interval, remaining));
  }
}

export async function expectCalled(connection: ControlConnection, filter: CallFilter, options: ExpectCalledOptions = {}): Promise<JournalEntry[]> {
  const compiled = compileCallFilter(filter, 'expectCalled()');
  const { times } = options;
  if (times !== undefined && (!Number.isSafeInteger(times) || times < 0)) {
    throw new HarnessError('INVALID_ARGUMENT', `Invalid options for expectCalled(): expected "times" to be a whole number of 0 or more, instead got ${JSON.stringify(times) ?? typeof times}.`);
  }
  const entries = await readCalls(connection, `read the calls of test ${quote(connection.testId)}`);
  const matched = compiled.select(entries);
  const wanted = times === undefined ? 'at least once' : times === 0 ? 'never' : times === 1 ? 'exactly once' : `exactly ${times} times`;
  const expected = `Expected test ${quote(connection.testId)} to call ${compiled.description} ${wanted}`;
  // An exact count over calls whose body the journal cut could pass on a call it never saw: fail instead.
  const unsure = times === undefined ? [] : compiled.unsure(entries);
  if (unsure.length > 0) {
    const listed = unsure.map((entry) => `  ${describeCall(entry)}`).join('\n');
    throw new Error(
      `${expected}, but ${unsure.length === 1 ? '1 call' : `${unsure.length} calls`} to it had a body over the journal's maxBodyBytes, kept cut, so whether it matches cannot be told (${matched.length} matched):\n${listed}\nRaise journal.maxBodyBytes in createHarness({ journal: { maxBodyBytes } }) above the body's size.`,
    );
  }
  if (times === undefined ? matched.length > 0 : matched.length === times) return matched;
  if (matched.length === 0) throw new Error(`${expected}, but it made no such call.\n${describeCallsSeen(entries, compiled)}`);
  const listed = matched.map((entry) => `  ${describeCall(entry)}`).join('\n');
  throw new Error(`${expected}, but it made ${matched.length === 1 ? '1 such call' : `${matched.length} such calls`}:\n${listed}`);
}

/** The app's harness checked each call against its documents already; the journal carries the verdicts. */
export async function expectNoContractViolations(connection: ControlConnection): Promise<JournalEntry[]> {
  const entries = await readCalls(connection, `read the calls of test ${quote(connection.testId)}`);
  const failure = describeContractViolations(entries, connection.testId);
  if (failure !== undefined) throw new Error(failure);
  return entries.filter((entry) => entry.contractViolations !== undefined);
}

export async function clearCalls(connection: ControlConnection): Promise<void> {
  const action = `clear the calls of test ${quote(connection.testId)}`;
  const response = await connection.send(action, 'DELETE', connection.endpoints.journal);
  if (response.status !== 200) connection.fail(action, 'DELETE', connection.endpoints.journal, response);
}

async function readCalls(connection: ControlConnection, action: string): Promise<JournalEntry[]> {
  const response = await connection.send(action, 'GET', connection.endpoints.journal);
  if (response.status !== 200 || !isRecord(response.body) || !Array.isArray(response.body.calls)) connection.fail(action, 'GET', connection.endpoints.journal, response);
  return (response.body as { calls: JournalEntry[] }).calls;
}

function checkDuration(where: string, name: string, value: unknown, minimum: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < minimum) {
    throw new HarnessError('INVALID_ARGUMENT', `Invalid options for ${where}: expected "${name}" to be a number of milliseconds of ${minimum} or more, instead got ${JSON.stringify(value) ?? typeof value}.`);
  }
}
