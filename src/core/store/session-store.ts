import type { JournalEntry } from '../journal/journal-entry.js';
import type { RecordedExchange, RecordMode } from '../recording/recorded-exchange.js';
import type { ActiveScenario, Mock } from '../types.js';

/** A test's state: string keys (dots allowed) to any JSON value. */
export type TestState = Readonly<Record<string, unknown>>;

/** What an intercepted call needs of its test, read in one step. */
export interface SessionSnapshot {
  active?: ActiveScenario;
  /** Never mutated: a store replaces it on every update. */
  state: TestState;
  /**
   * Changes at every switch and end: a `setState` from a call that read an older generation
   * must not land in the new scenario's state. `''` for a session never switched.
   */
  generation?: string;
  /** Set while the test records its calls (see `setRecording`). */
  recording?: RecordMode;
  /**
   * The version of the test's own mocks (`addMocks`), absent while it has none: the harness
   * compiles a test's mocks once per version, and a test without any pays nothing for them.
   */
  mocks?: string;
}

/**
 * The sequence key of a test's own mock starts with this (`(test)#0` for its first): a store
 * removing a test's mocks removes these positions, and keeps its scenario's.
 */
export const TEST_MOCK_KEY_PREFIX = '(test)#';

/** A test's own mocks, as a store keeps them. */
export interface StoredMocks {
  /** Changes whenever the list does, and is unique within the store (a test ended and begun again gets a new one). */
  version: string;
  /** Oldest first, as they were added. */
  mocks: readonly Mock[];
}

/** The bounds `addMocks` keeps a test's own mocks under (`limits.maxTestMocks`, `limits.maxTestMockBytes`, `limits.maxTotalTestMockBytes`). */
export interface TestMockLimits {
  maxMocks: number;
  maxBytes: number;
  /** The most bytes the own mocks of all tests in the store may take together; absent, no total is kept to. */
  maxTotalBytes?: number;
}

/**
 * What `addMocks` did: added them (and how many the test now has), or nothing, past a bound.
 * `bytes` is what the test's mocks hold; `totalBytes`, set only when the store-wide total was
 * the bound passed, is what the own mocks of all tests hold.
 */
export type AddMocksResult = { added: true; count: number; version: string } | { added: false; count: number; bytes: number; totalBytes?: number };

/** The bound `updateState` keeps a test's state under (`limits.maxStateBytes`): its keys and values, measured as JSON. */
export interface StateLimits {
  maxBytes: number;
}

/** What `updateState` did past `limits.maxBytes`: nothing. `bytes` is the state's size, `adding` what the changes would have added. */
export interface StateRefusal {
  refused: true;
  bytes: number;
  adding: number;
}

/** One live test ID, as the inspector lists it. */
export interface SessionSummary {
  testId: string;
  /** The scenario (and variant) it selected; absent when it selected none (`default` answers). */
  active?: ActiveScenario;
  /** How many calls its journal holds. */
  calls: number;
  /** When its newest journaled call was made (ISO 8601). */
  lastCallAt?: string;
}

/** One page of live test IDs (`listSessions`). */
export interface SessionPage {
  sessions: SessionSummary[];
  /** Pass it back as `cursor` for the next page; absent on the last page. Digits only (an offset, a SCAN cursor): the endpoint refuses anything else. */
  cursor?: string;
  /** How many test IDs match in all, when the store knows it cheaply (the memory store does). */
  total?: number;
}

/** One key written by `afterResponse.setState`. */
export interface StateChange {
  key: string;
  value: unknown;
  /** True for a key written `items[]`: push `value` onto the array under `key`. */
  append: boolean;
}

export type SequenceRepeat = 'last' | 'cycle' | 'none';

/**
 * Where sessions live: per test ID the active scenario, the state and the sequence positions.
 * Async because a store may sit across the network (Redis), and each method is one atomic step
 * so that an app running as several processes sees one switch, one state, one sequence order.
 */
/** What `appendCall` is told about the bytes a journal keeps (see `JournalOptions`). */
export interface JournalBounds {
  /** The entry's kept size: an estimate of the heap it retains, at most `journal.maxEntryBytes`. */
  entryBytes: number;
  /** `journal.maxTotalBytes`: the most the store's journals may keep together. */
  maxTotalBytes: number;
}

export interface SessionStore {
  /** The session of a test ID, or `undefined` when the store holds nothing for it. */
  read(testId: string): Promise<SessionSnapshot | undefined>;
  /** Select a scenario, and clear the state and the sequence positions, in one step. */
  activate(testId: string, active: ActiveScenario): Promise<void>;
  /**
   * Take the next position of a sequence in one atomic step and return the index of the
   * response to serve, or `undefined` when a `'none'` sequence is used up.
   */
  advanceSequence(testId: string, sequenceKey: string, length: number, repeat: SequenceRepeat): Promise<number | undefined>;
  /**
   * Merge keys into the state (appending for `append` changes) in one atomic step. With
   * `generation`, only while the session is still that generation (a call in flight across a
   * switch writes nothing); without it (`undefined` or `null`), unconditionally. With `limits`,
   * changes that would take the state past `limits.maxBytes` (its keys and values as JSON) change
   * nothing, and the store resolves to a `StateRefusal`; changes that shrink it always land.
   */
  updateState(testId: string, changes: readonly StateChange[], generation?: string | null, limits?: StateLimits): Promise<StateRefusal | void>;
  /** Forget the test ID: active scenario, state, positions, own mocks and journal. */
  end(testId: string): Promise<void>;
  /**
   * Record one outgoing call in the test's journal, keeping the last `maxEntries`. The journal
   * is not cleared by a switch, only by `end`, `clearCalls`, eviction or expiry. Optional: a
   * store without it keeps no journal. `bounds` (from the harness's journal options) gives the
   * entry's kept size and the most the store's journals may keep together; a store that holds
   * them in its own memory drops its oldest entries past it and resolves to how many it dropped.
   */
  appendCall?(testId: string, entry: JournalEntry, maxEntries: number, bounds?: JournalBounds): Promise<number | void>;
  /** The test's journal, oldest first (`[]` when none). */
  readCalls?(testId: string): Promise<JournalEntry[]>;
  /** Empty the test's journal, leaving its session as it is. */
  clearCalls?(testId: string): Promise<void>;
  /**
   * One page of the live test IDs whose ID contains `search` (case-insensitive), for the
   * inspector: start with no `cursor`, then pass the page's `cursor` back until it has none.
   * Listing is not a use: it renews no session. A page may hold a few more or fewer than
   * `limit`, and a test ID that moves between two pages may be listed twice or not at all.
   * Optional: a store without it cannot be browsed in the inspector.
   */
  listSessions?(cursor: string | undefined, limit: number, search?: string): Promise<SessionPage>;
  /**
   * Start (a mode) or stop (`undefined`) recording for a test; the mode is part of the session
   * that `read` returns and survives a switch. Optional, with the two methods below: a store
   * without them cannot record.
   */
  setRecording?(testId: string, mode: RecordMode | undefined): Promise<void>;
  /** Keep one recorded exchange (bounded by `maxEntries`, oldest dropped). */
  appendRecorded?(testId: string, exchange: RecordedExchange, maxEntries: number): Promise<void>;
  /** The exchanges recorded for a test, oldest first; `clear` empties the list too. */
  readRecorded?(testId: string, options?: { clear?: boolean }): Promise<RecordedExchange[]>;
  /**
   * Add mocks of the test's own, answered before its scenario, in one atomic step: unless the
   * test would then hold more than `limits.maxMocks` of them or more than `limits.maxBytes`
   * (`bytes` is the batch's size as JSON), or the own mocks of all tests together more than
   * `limits.maxTotalBytes`, in which case nothing changes. They are kept across
   * a switch (`activate` resets their sequence positions with the others) and end with the
   * session. Optional, with the two methods below: a store without them cannot hold per-test
   * mocks, and their endpoint answers 501.
   */
  addMocks?(testId: string, mocks: readonly Mock[], bytes: number, limits: TestMockLimits): Promise<AddMocksResult>;
  /** The test's own mocks, or `undefined` when it has none. */
  readMocks?(testId: string): Promise<StoredMocks | undefined>;
  /** Remove the test's own mocks (its scenario, state and journal stay). */
  resetMocks?(testId: string): Promise<void>;
  /**
   * A stream's view (JSON), under its test and its `streamKey`, for every replica to read: the
   * streams part keeps a test's held streams visible to all the app's processes. Optional, with
   * the three methods below: a store in one process needs none of them (a Redis store shares them).
   */
  putStreamView?(testId: string, streamKey: string, view: string): Promise<void>;
  /** Every stream view of a test, from any process. */
  readStreamViews?(testId: string): Promise<string[]>;
  /** A command (JSON) for the process that holds the test's stream `streamKey`. */
  sendStreamCommand?(testId: string, streamKey: string, command: string): Promise<void>;
  /** The commands sent to stream `streamKey` since the last take, oldest first; taken, they are gone. */
  takeStreamCommands?(testId: string, streamKey: string): Promise<string[]>;
  /** Release what the store holds open (timers, connections). */
  close?(): Promise<void>;
  /**
   * Keep the session of a test ID from being evicted until the returned function is called.
   * The harness pins a test's session for the whole of each intercepted call, so a store that
   * evicts sessions (the memory store) never drops one under a call that is using it. Optional:
   * a store whose sessions only expire by time after their last use needs no pins.
   */
  pin?(testId: string): () => void;
}

/** The position a sequence serves at `position` (0-based, before advancing); `undefined` once a `'none'` sequence is used up. */
export function sequenceIndex(position: number, length: number, repeat: SequenceRepeat): number | undefined {
  if (position < length) return position;
  if (repeat === 'cycle') return position % length;
  if (repeat === 'last') return length - 1;
  return undefined;
}
