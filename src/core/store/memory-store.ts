import type { JournalEntry } from '../journal/journal-entry.js';
import type { RecordedExchange, RecordMode } from '../recording/recorded-exchange.js';
import type { ActiveScenario, Mock } from '../types.js';
import { applyStateChanges, EMPTY_STATE } from './apply-state-changes.js';
import { measureStateChanges } from './measure-state-changes.js';
import { offerStoreNow } from './store-now.js';
import {
  sequenceIndex,
  type AddMocksResult,
  type JournalBounds,
  type SequenceRepeat,
  type SessionPage,
  type SessionSnapshot,
  type SessionStore,
  type StateChange,
  type StateLimits,
  type TestMockLimits,
  TEST_MOCK_KEY_PREFIX,
} from './session-store.js';

export interface MemoryStoreOptions {
  /**
   * Sessions beyond this count are evicted, least recently used first. A session pinned by a
   * call in flight is never evicted, so the count can exceed this while such calls last.
   * @default 10000
   */
  maxSessions?: number;
  /**
   * A session unused this long (ms) is evicted. Eviction is lazy: it happens on the next access
   * to the store, and no timer keeps the process alive.
   * @default 3600000 (one hour)
   */
  idleTimeoutMs?: number;
  /** The clock, in milliseconds; tests pass a fake one. @default Date.now */
  now?: () => number;
}

/** The in-memory `SessionStore`, with a count for diagnostics. */
export interface MemoryStore extends SessionStore {
  /** Sessions held right now, including idle ones not yet evicted. */
  readonly size: number;
  /**
   * What the journals of all tests keep right now, in bytes: the sum of their entries' kept sizes
   * (estimates of the heap each retains), held under `journal.maxTotalBytes`.
   */
  readonly journalBytes: number;
  /** What the own mocks of all tests hold right now, in bytes as JSON: held under `limits.maxTotalTestMockBytes`. */
  readonly mockBytes: number;
  pin(testId: string): () => void;
  /** Most recently used first; the cursor is a position in that order. */
  listSessions(cursor: string | undefined, limit: number, search?: string): Promise<SessionPage>;
}

/** A test's journal, oldest first: `entries` may run a little longer than the `kept` newest it holds (see `appendCallNow`). */
interface Journal {
  entries: JournalEntry[];
  /** Each entry's kept size, as the harness measured it (`JournalBounds.entryBytes`), in the same order. */
  sizes: number[];
  /** The sum of `sizes`. */
  bytes: number;
  kept: number;
}

interface MemorySession extends SessionSnapshot {
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
 * The default `SessionStore`: sessions in a Map, in least-recently-used order, bounded by count
 * and by idle time.
 *
 * @example
 * const harness = createHarness({ enabled: true, scenarios, store: createMemoryStore({ maxSessions: 500 }) });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const { maxSessions = 10_000, idleTimeoutMs = 60 * 60 * 1000, now: clock = () => Date.now() } = options;
  const sessions = new Map<string, MemorySession>();
  /** Calls in flight per test ID: their sessions are not evicted. */
  const pins = new Map<string, number>();
  /** Generations are unique within the store, so a session ended and started again is a new one. */
  let generations = 0;
  /** The most recently used test ID. */
  let newest: string | undefined;
  /**
   * No session can be idle too long before this time: the oldest one seen by the last eviction
   * pass (sessions only get newer) becomes idle then. Until it, and while under the count, there
   * is nothing to evict and the Map is not walked.
   * @note Walking a Map from its start costs time for every entry deleted since its last rehash,
   * and moving a session to the newest end deletes one: with a thousand tests calling in turn,
   * an eviction pass on every access cost a call about a microsecond.
   */
  let nextIdleAt = Infinity;
  /** What every journal in the store keeps together: the sum of their `bytes`. */
  let journalBytes = 0;
  /** What the own mocks of every test hold together: the sum of their `own.bytes`. */
  let mockBytes = 0;

  /** Drop a session, and its journal's and its mocks' bytes from the totals. */
  function drop(testId: string, session: MemorySession): void {
    sessions.delete(testId);
    if (session.calls !== undefined) journalBytes -= session.calls.bytes;
    if (session.own !== undefined) mockBytes -= session.own.bytes;
  }

  /** Drop the oldest `count` entries of a journal. */
  function dropOldest(journal: Journal, count: number): void {
    journal.entries.splice(0, count);
    for (const size of journal.sizes.splice(0, count)) {
      journal.bytes -= size;
      journalBytes -= size;
    }
  }

  /**
   * Bring the journals under `maxTotalBytes`, taking the oldest entries of the least recently used
   * tests first (the Map runs least recently used first; the test that just called is the newest).
   * Down to seven eighths of it, so that a full store walks its sessions once per many calls, not on
   * every one. The newest entry of `current` always stays. Returns how many entries were dropped.
   */
  function makeRoom(maxTotalBytes: number, current: Journal): number {
    const target = maxTotalBytes - (maxTotalBytes >> 3);
    let dropped = 0;
    for (const session of sessions.values()) {
      const journal = session.calls;
      if (journal === undefined) continue;
      const keep = journal === current ? 1 : 0;
      let count = 0;
      let freed = 0;
      while (journalBytes - freed > target && count < journal.entries.length - keep) freed += journal.sizes[count++]!;
      dropOldest(journal, count);
      dropped += count;
      if (journalBytes <= target) break;
    }
    return dropped;
  }

  /** The session, moved to the most-recently-used end; created when `create` is set. */
  function touch(testId: string, create: true): MemorySession;
  function touch(testId: string, create: false): MemorySession | undefined;
  function touch(testId: string, create: boolean): MemorySession | undefined {
    const now = clock();
    let session = sessions.get(testId);
    if (session !== undefined && now - session.touchedAt > idleTimeoutMs && !pins.has(testId)) {
      drop(testId, session);
      session = undefined;
    }
    if (session === undefined) {
      if (!create) {
        evict(now);
        return undefined;
      }
      session = { active: undefined, state: EMPTY_STATE, stateSizes: undefined, stateBytes: 0, positions: undefined, calls: undefined, recorded: undefined, own: undefined, touchedAt: now, generation: '' };
      sessions.set(testId, session);
      nextIdleAt = Math.min(nextIdleAt, now + idleTimeoutMs + 1);
    } else if (testId !== newest) {
      sessions.delete(testId);
      sessions.set(testId, session);
    }
    session.touchedAt = now;
    newest = testId;
    evict(now);
    return session;
  }

  /** From the least recently used end: drop sessions over the count and idle ones, skipping pinned ones. */
  function evict(now: number): void {
    if (sessions.size <= maxSessions && now < nextIdleAt) return;
    nextIdleAt = Infinity;
    for (const [testId, session] of sessions) {
      if (sessions.size <= maxSessions && now - session.touchedAt <= idleTimeoutMs) {
        nextIdleAt = session.touchedAt + idleTimeoutMs + 1;
        break;
      }
      if (!pins.has(testId)) drop(testId, session);
    }
  }

  function readNow(testId: string): SessionSnapshot | undefined {
    const session = touch(testId, false);
    // A copy: the session object itself changes with the next switch or state write.
    if (session === undefined) return undefined;
    const { active, state, generation, recording, own } = session;
    // Literals, not spreads: this runs for every intercepted call.
    if (own === undefined) return recording === undefined ? { active, state, generation } : { active, state, generation, recording };
    return recording === undefined ? { active, state, generation, mocks: own.version } : { active, state, generation, recording, mocks: own.version };
  }

  function appendCallNow(testId: string, entry: JournalEntry, maxEntries: number, bounds?: JournalBounds): number {
    // The call was read from its session first (`read`), which made it the newest: it needs no
    // second move, and no second clock read, to take the journal entry.
    const session = (testId === newest ? sessions.get(testId) : undefined) ?? touch(testId, true);
    const journal = (session.calls ??= { entries: [], sizes: [], bytes: 0, kept: maxEntries });
    const size = bounds?.entryBytes ?? 0;
    journal.entries.push(entry);
    journal.sizes.push(size);
    journal.bytes += size;
    journalBytes += size;
    journal.kept = maxEntries;
    // The oldest are dropped a quarter of maxEntries at a time, not one per call: a splice moves
    // every entry, which made each call of a test with a full journal pay for the whole journal.
    if (journal.entries.length > maxEntries + Math.max(1, maxEntries >> 2)) dropOldest(journal, journal.entries.length - maxEntries);
    return bounds !== undefined && journalBytes > bounds.maxTotalBytes ? makeRoom(bounds.maxTotalBytes, journal) : 0;
  }

  /** The journal as kept: the newest `kept` entries, oldest first (a copy). */
  function keptCalls(session: MemorySession | undefined): JournalEntry[] {
    const journal = session?.calls;
    if (journal === undefined) return [];
    const { entries, kept } = journal;
    return entries.length > kept ? entries.slice(entries.length - kept) : [...entries];
  }

  const store: MemoryStore = {
    get size() {
      return sessions.size;
    },
    get journalBytes() {
      return journalBytes;
    },
    get mockBytes() {
      return mockBytes;
    },
    pin(testId) {
      // A call arriving is a use: an already idle session is dropped now, a live one renewed.
      touch(testId, false);
      pins.set(testId, (pins.get(testId) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = pins.get(testId)! - 1;
        if (left === 0) {
          pins.delete(testId);
          // An idle session kept only for its pins is due for eviction at the next access.
          nextIdleAt = -Infinity;
        } else pins.set(testId, left);
      };
    },
    async read(testId) {
      return readNow(testId);
    },
    async activate(testId, active: ActiveScenario) {
      const session = touch(testId, true);
      session.active = active.variant === undefined ? { scenarioId: active.scenarioId } : { ...active };
      session.state = EMPTY_STATE;
      session.stateSizes = undefined;
      session.stateBytes = 0;
      session.positions = undefined;
      session.generation = String(++generations);
    },
    async advanceSequence(testId, sequenceKey, length, repeat: SequenceRepeat) {
      const session = touch(testId, true);
      session.positions ??= new Map();
      const position = session.positions.get(sequenceKey) ?? 0;
      const index = sequenceIndex(position, length, repeat);
      if (index !== undefined) session.positions.set(sequenceKey, position + 1);
      return index;
    },
    async updateState(testId, changes: readonly StateChange[], generation?: string | null, limits?: StateLimits) {
      // `null` as `undefined`: a store reached over JSON (a process tree's host) gets a missing generation as null.
      if (typeof generation === 'string' && (sessions.get(testId)?.generation ?? '') !== generation) return;
      const session = touch(testId, true);
      const { sizes, delta } = measureStateChanges(session.state, session.stateSizes, changes);
      // Changes that shrink the state always land, also in a state already past the bound (a bound lowered, say).
      if (limits !== undefined && delta > 0 && session.stateBytes + delta > limits.maxBytes) return { refused: true, bytes: session.stateBytes, adding: delta };
      session.state = applyStateChanges(session.state, changes);
      session.stateBytes += delta;
      const held = (session.stateSizes ??= new Map());
      for (const [key, size] of sizes) {
        if (size === undefined) held.delete(key);
        else held.set(key, size);
      }
    },
    async addMocks(testId, mocks: readonly Mock[], bytes: number, { maxMocks, maxBytes, maxTotalBytes = Infinity }: TestMockLimits): Promise<AddMocksResult> {
      const session = touch(testId, true);
      const held = session.own ?? { version: '', mocks: [], bytes: 0 };
      // Nothing to add changes nothing (a test without mocks keeps its fast path).
      if (mocks.length === 0) return { added: true, count: held.mocks.length, version: held.version };
      if (held.mocks.length + mocks.length > maxMocks || held.bytes + bytes > maxBytes) return { added: false, count: held.mocks.length, bytes: held.bytes };
      if (mockBytes + bytes > maxTotalBytes) return { added: false, count: held.mocks.length, bytes: held.bytes, totalBytes: mockBytes };
      // Versions share the generations' counter: unique within the store, so a cached compile of an ended test's mocks never answers for a new one.
      session.own = { version: `m${++generations}`, mocks: [...held.mocks, ...mocks], bytes: held.bytes + bytes };
      mockBytes += bytes;
      return { added: true, count: session.own.mocks.length, version: session.own.version };
    },
    async readMocks(testId) {
      const own = touch(testId, false)?.own;
      return own === undefined ? undefined : { version: own.version, mocks: own.mocks };
    },
    async resetMocks(testId) {
      const session = touch(testId, false);
      if (session === undefined) return;
      if (session.own !== undefined) mockBytes -= session.own.bytes;
      session.own = undefined;
      // Their positions go with them (mocks added later start their sequences over); the scenario's stay.
      for (const key of session.positions?.keys() ?? []) if (key.startsWith(TEST_MOCK_KEY_PREFIX)) session.positions!.delete(key);
    },
    async end(testId) {
      const session = sessions.get(testId);
      if (session !== undefined) drop(testId, session);
    },
    async appendCall(testId, entry: JournalEntry, maxEntries: number, bounds?: JournalBounds) {
      return appendCallNow(testId, entry, maxEntries, bounds);
    },
    async readCalls(testId) {
      return keptCalls(touch(testId, false));
    },
    async setRecording(testId, mode: RecordMode | undefined) {
      const session = touch(testId, true);
      session.recording = mode;
    },
    async appendRecorded(testId, exchange: RecordedExchange, maxEntries: number) {
      const session = touch(testId, true);
      session.recorded ??= [];
      session.recorded.push(exchange);
      if (session.recorded.length > maxEntries) session.recorded.splice(0, session.recorded.length - maxEntries);
    },
    async readRecorded(testId, { clear = false } = {}) {
      const session = touch(testId, false);
      const recorded = [...(session?.recorded ?? [])];
      if (clear && session !== undefined) session.recorded = undefined;
      return recorded;
    },
    async clearCalls(testId) {
      const session = sessions.get(testId);
      if (session?.calls === undefined) return;
      journalBytes -= session.calls.bytes;
      session.calls = undefined;
    },
    async listSessions(cursor, limit, search) {
      // Idle sessions go first, so none is listed that the next call would find gone.
      evict(clock());
      const needle = search?.toLowerCase() ?? '';
      // The Map runs least recently used first; the inspector wants the newest tests on top.
      const ids = [...sessions.keys()].reverse();
      const matching = needle === '' ? ids : ids.filter((testId) => testId.toLowerCase().includes(needle));
      const start = Math.max(0, Number.parseInt(cursor ?? '0', 10) || 0);
      const end = start + limit;
      return {
        sessions: matching.slice(start, end).map((testId) => {
          const { active, calls } = sessions.get(testId)!;
          const last = calls?.entries.at(-1);
          return { testId, ...(active === undefined ? {} : { active }), calls: Math.min(calls?.entries.length ?? 0, calls?.kept ?? 0), ...(last === undefined ? {} : { lastCallAt: last.at }) };
        }),
        ...(end < matching.length ? { cursor: String(end) } : {}),
        total: matching.length,
      };
    },
  };
  offerStoreNow(store, { read: readNow, appendCall: appendCallNow });
  return store;
}
