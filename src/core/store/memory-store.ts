import { appendCallNow, journalMethods } from './memory/journal.js';
import { ownMockMethods } from './memory/own-mocks.js';
import { recordingMethods } from './memory/recording.js';
import { readNow, sessionMethods } from './memory/sessions.js';
import { stateMethods } from './memory/state.js';
import { streamMethods } from './memory/streams.js';
import { createStoreState } from './memory/store-state.js';
import type { SessionPage, SessionStore } from './session-store.js';
import { offerStoreNow } from './store-now.js';

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

/**
 * The default `SessionStore`: sessions in a Map, in least-recently-used order, bounded by count
 * and by idle time.
 *
 * @example
 * const harness = createHarness({ enabled: true, scenarios, store: createMemoryStore({ maxSessions: 500 }) });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const { maxSessions = 10_000, idleTimeoutMs = 60 * 60 * 1000, now: clock = () => Date.now() } = options;
  const state = createStoreState(maxSessions, idleTimeoutMs, clock);
  const store: MemoryStore = {
    get size() {
      return state.sessions.size;
    },
    get journalBytes() {
      return state.journalBytes;
    },
    get mockBytes() {
      return state.mockBytes;
    },
    ...sessionMethods(state),
    ...stateMethods(state),
    ...ownMockMethods(state),
    ...journalMethods(state),
    ...recordingMethods(state),
    ...streamMethods(),
  };
  offerStoreNow(store, { read: (testId) => readNow(state, testId), appendCall: (testId, entry, maxEntries, bounds) => appendCallNow(state, testId, entry, maxEntries, bounds) });
  return store;
}
