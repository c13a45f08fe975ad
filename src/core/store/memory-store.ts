import type { ActiveScenario } from '../types.js';
import { applyStateChanges, EMPTY_STATE } from './apply-state-changes.js';
import { sequenceIndex, type SequenceRepeat, type SessionSnapshot, type SessionStore, type StateChange } from './session-store.js';

export interface MemoryStoreOptions {
  /** Sessions beyond this count are evicted, least recently used first. @default 10000 */
  maxSessions?: number;
  /** A session untouched this long (ms) is evicted. @default 3600000 (one hour) */
  idleTimeoutMs?: number;
}

interface MemorySession extends SessionSnapshot {
  positions: Map<string, number> | undefined;
  touchedAt: number;
}

/**
 * The default `SessionStore`: sessions in a Map, in least-recently-used order.
 *
 * @example
 * const harness = createHarness({ enabled: true, scenarios, store: createMemoryStore({ maxSessions: 500 }) });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): SessionStore {
  const { maxSessions = 10_000, idleTimeoutMs = 60 * 60 * 1000 } = options;
  const sessions = new Map<string, MemorySession>();

  /** The session, moved to the most-recently-used end; created when `create` is set. */
  function touch(testId: string, create: true): MemorySession;
  function touch(testId: string, create: false): MemorySession | undefined;
  function touch(testId: string, create: boolean): MemorySession | undefined {
    const now = Date.now();
    let session = sessions.get(testId);
    if (session !== undefined) {
      sessions.delete(testId);
      if (now - session.touchedAt > idleTimeoutMs) session = undefined;
    }
    if (session === undefined) {
      if (!create) return undefined;
      session = { active: undefined, state: EMPTY_STATE, positions: undefined, touchedAt: now };
    }
    session.touchedAt = now;
    sessions.set(testId, session);
    evict(now);
    return session;
  }

  /** Drop sessions over the count (oldest first), and idle ones from the old end. */
  function evict(now: number): void {
    for (const [testId, session] of sessions) {
      if (sessions.size > maxSessions || now - session.touchedAt > idleTimeoutMs) sessions.delete(testId);
      else break;
    }
  }

  return {
    async read(testId) {
      return touch(testId, false);
    },
    async activate(testId, active: ActiveScenario) {
      const session = touch(testId, true);
      session.active = active.variant === undefined ? { scenarioId: active.scenarioId } : { ...active };
      session.state = EMPTY_STATE;
      session.positions = undefined;
    },
    async advanceSequence(testId, sequenceKey, length, repeat: SequenceRepeat) {
      const session = touch(testId, true);
      session.positions ??= new Map();
      const position = session.positions.get(sequenceKey) ?? 0;
      const index = sequenceIndex(position, length, repeat);
      if (index !== undefined) session.positions.set(sequenceKey, position + 1);
      return index;
    },
    async updateState(testId, changes: readonly StateChange[]) {
      const session = touch(testId, true);
      session.state = applyStateChanges(session.state, changes);
    },
    async end(testId) {
      sessions.delete(testId);
    },
  };
}
