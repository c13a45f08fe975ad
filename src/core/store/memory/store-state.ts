import type { JournalEntry } from '../../journal/journal-entry.js';
import type { RecordedExchange } from '../../recording/recorded-exchange.js';
import type { Mock } from '../../types.js';
import type { SessionSnapshot } from '../session-store.js';

/** A test's journal, oldest first: `entries` may run a little longer than the `kept` newest it holds (see `appendCallNow`). */
export interface Journal {
  entries: JournalEntry[];
  /** Each entry's kept size, as the harness measured it (`JournalBounds.entryBytes`), in the same order. */
  sizes: number[];
  /** The sum of `sizes`. */
  bytes: number;
  kept: number;
}

export interface MemorySession extends SessionSnapshot {
  positions: Map<string, number> | undefined;
  /** The journal, oldest first; created on the first recorded call. */
  calls: Journal | undefined;
  recorded: RecordedExchange[] | undefined;
  /** The test's own mocks (a new object at every change: a reader's list never changes under it). */
  own: { version: string; mocks: readonly Mock[]; bytes: number } | undefined;
  /** Each state key's value size as JSON (created at the first write), and the state's whole size, keys included (see `measureStateChanges`). */
  stateSizes: Map<string, number> | undefined;
  stateBytes: number;
  touchedAt: number;
  generation: string;
}

/**
 * What the concerns of one memory store share: its sessions and the totals over them. One plain
 * object, so that the concern modules are plain functions of it and a call allocates nothing more
 * than it did when they were closures in one function.
 */
export interface MemoryStoreState {
  readonly maxSessions: number;
  readonly idleTimeoutMs: number;
  readonly clock: () => number;
  /** In least-recently-used order: the Map runs least recently used first. */
  readonly sessions: Map<string, MemorySession>;
  /** Calls in flight per test ID: their sessions are not evicted. */
  readonly pins: Map<string, number>;
  /**
   * Generations are unique within the store, so a session ended and started again is a new one.
   * The own mocks' versions share this counter.
   */
  generations: number;
  /** The most recently used test ID. */
  newest: string | undefined;
  /**
   * No session can be idle too long before this time: the oldest one seen by the last eviction
   * pass (sessions only get newer) becomes idle then. Until it, and while under the count, there
   * is nothing to evict and the Map is not walked.
   * @note Walking a Map from its start costs time for every entry deleted since its last rehash,
   * and moving a session to the newest end deletes one: with a thousand tests calling in turn,
   * an eviction pass on every access cost a call about a microsecond.
   */
  nextIdleAt: number;
  /** What every journal in the store keeps together: the sum of their `bytes`. */
  journalBytes: number;
  /** What the own mocks of every test hold together: the sum of their `own.bytes`. */
  mockBytes: number;
}

export function createStoreState(maxSessions: number, idleTimeoutMs: number, clock: () => number): MemoryStoreState {
  return { maxSessions, idleTimeoutMs, clock, sessions: new Map(), pins: new Map(), generations: 0, newest: undefined, nextIdleAt: Infinity, journalBytes: 0, mockBytes: 0 };
}

/** Drop a session, and its journal's and its mocks' bytes from the totals. */
export function dropSession(state: MemoryStoreState, testId: string, session: MemorySession): void {
  state.sessions.delete(testId);
  if (session.calls !== undefined) state.journalBytes -= session.calls.bytes;
  if (session.own !== undefined) state.mockBytes -= session.own.bytes;
}
