import type { JournalEntry } from '../../journal/journal-entry.js';
import type { JournalBounds, SessionStore } from '../session-store.js';
import { touch } from './sessions.js';
import type { Journal, MemorySession, MemoryStoreState } from './store-state.js';

/** Drop the oldest `count` entries of a journal. */
function dropOldest(state: MemoryStoreState, journal: Journal, count: number): void {
  journal.entries.splice(0, count);
  for (const size of journal.sizes.splice(0, count)) {
    journal.bytes -= size;
    state.journalBytes -= size;
  }
}

/**
 * Bring the journals under `maxTotalBytes`, taking the oldest entries of the least recently used
 * tests first (the Map runs least recently used first; the test that just called is the newest).
 * Down to seven eighths of it, so that a full store walks its sessions once per many calls, not on
 * every one. The newest entry of `current` always stays. Returns how many entries were dropped.
 */
function makeRoom(state: MemoryStoreState, maxTotalBytes: number, current: Journal): number {
  const target = maxTotalBytes - (maxTotalBytes >> 3);
  let dropped = 0;
  for (const session of state.sessions.values()) {
    const journal = session.calls;
    if (journal === undefined) continue;
    const keep = journal === current ? 1 : 0;
    let count = 0;
    let freed = 0;
    while (state.journalBytes - freed > target && count < journal.entries.length - keep) freed += journal.sizes[count++]!;
    dropOldest(state, journal, count);
    dropped += count;
    if (state.journalBytes <= target) break;
  }
  return dropped;
}

/** Record a call in its test's journal; returns how many entries were dropped to keep the journals under `bounds.maxTotalBytes`. */
export function appendCallNow(state: MemoryStoreState, testId: string, entry: JournalEntry, maxEntries: number, bounds?: JournalBounds): number {
  // The call was read from its session first (`read`), which made it the newest: it needs no
  // second move, and no second clock read, to take the journal entry.
  const session = (testId === state.newest ? state.sessions.get(testId) : undefined) ?? touch(state, testId, true);
  const journal = (session.calls ??= { entries: [], sizes: [], bytes: 0, kept: maxEntries });
  const size = bounds?.entryBytes ?? 0;
  journal.entries.push(entry);
  journal.sizes.push(size);
  journal.bytes += size;
  state.journalBytes += size;
  journal.kept = maxEntries;
  // The oldest are dropped a quarter of maxEntries at a time, not one per call: a splice moves
  // every entry, which made each call of a test with a full journal pay for the whole journal.
  if (journal.entries.length > maxEntries + Math.max(1, maxEntries >> 2)) dropOldest(state, journal, journal.entries.length - maxEntries);
  return bounds !== undefined && state.journalBytes > bounds.maxTotalBytes ? makeRoom(state, bounds.maxTotalBytes, journal) : 0;
}

/** The journal as kept: the newest `kept` entries, oldest first (a copy). */
function keptCalls(session: MemorySession | undefined): JournalEntry[] {
  const journal = session?.calls;
  if (journal === undefined) return [];
  const { entries, kept } = journal;
  return entries.length > kept ? entries.slice(entries.length - kept) : [...entries];
}

export type JournalMethods = Required<Pick<SessionStore, 'appendCall' | 'readCalls' | 'clearCalls'>>;

/** Each test's journal of calls, bounded per test by count and store-wide by bytes. */
export function journalMethods(state: MemoryStoreState): JournalMethods {
  return {
    async appendCall(testId, entry: JournalEntry, maxEntries: number, bounds?: JournalBounds) {
      return appendCallNow(state, testId, entry, maxEntries, bounds);
    },
    async readCalls(testId) {
      return keptCalls(touch(state, testId, false));
    },
    async clearCalls(testId) {
      const session = state.sessions.get(testId);
      if (session?.calls === undefined) return;
      state.journalBytes -= session.calls.bytes;
      session.calls = undefined;
    },
  };
}
