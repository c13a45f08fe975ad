import type { ActiveScenario } from '../../types.js';
import { EMPTY_STATE } from '../apply-state-changes.js';
import { sequenceIndex, type SequenceRepeat, type SessionPage, type SessionSnapshot, type SessionStore } from '../session-store.js';
import { dropSession, type MemorySession, type MemoryStoreState } from './store-state.js';

/** The session, moved to the most-recently-used end; created when `create` is set. */
export function touch(state: MemoryStoreState, testId: string, create: true): MemorySession;
export function touch(state: MemoryStoreState, testId: string, create: false): MemorySession | undefined;
export function touch(state: MemoryStoreState, testId: string, create: boolean): MemorySession | undefined {
  const now = state.clock();
  const { sessions } = state;
  let session = sessions.get(testId);
  if (session !== undefined && now - session.touchedAt > state.idleTimeoutMs && !state.pins.has(testId)) {
    dropSession(state, testId, session);
    session = undefined;
  }
  if (session === undefined) {
    if (!create) {
      evict(state, now);
      return undefined;
    }
    session = { active: undefined, state: EMPTY_STATE, stateSizes: undefined, stateBytes: 0, positions: undefined, calls: undefined, recorded: undefined, own: undefined, touchedAt: now, generation: '' };
    sessions.set(testId, session);
    state.nextIdleAt = Math.min(state.nextIdleAt, now + state.idleTimeoutMs + 1);
  } else if (testId !== state.newest) {
    sessions.delete(testId);
    sessions.set(testId, session);
  }
  session.touchedAt = now;
  state.newest = testId;
  evict(state, now);
  return session;
}

/** From the least recently used end: drop sessions over the count and idle ones, skipping pinned ones. */
export function evict(state: MemoryStoreState, now: number): void {
  const { sessions, maxSessions, idleTimeoutMs } = state;
  if (sessions.size <= maxSessions && now < state.nextIdleAt) return;
  state.nextIdleAt = Infinity;
  for (const [testId, session] of sessions) {
    if (sessions.size <= maxSessions && now - session.touchedAt <= idleTimeoutMs) {
      state.nextIdleAt = session.touchedAt + idleTimeoutMs + 1;
      break;
    }
    if (!state.pins.has(testId)) dropSession(state, testId, session);
  }
}

export function readNow(state: MemoryStoreState, testId: string): SessionSnapshot | undefined {
  const session = touch(state, testId, false);
  // A copy: the session object itself changes with the next switch or state write.
  if (session === undefined) return undefined;
  const { active, state: values, generation, recording, own } = session;
  // Literals, not spreads: this runs for every intercepted call.
  if (own === undefined) return recording === undefined ? { active, state: values, generation } : { active, state: values, generation, recording };
  return recording === undefined ? { active, state: values, generation, mocks: own.version } : { active, state: values, generation, recording, mocks: own.version };
}

/** Most recently used first; the cursor is a position in that order. */
function listSessions(state: MemoryStoreState, cursor: string | undefined, limit: number, search?: string): SessionPage {
  // Idle sessions go first, so none is listed that the next call would find gone.
  evict(state, state.clock());
  const { sessions } = state;
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
}

export type SessionMethods = Pick<SessionStore, 'read' | 'activate' | 'advanceSequence' | 'end'> & Required<Pick<SessionStore, 'pin' | 'listSessions'>>;

/** The sessions themselves: reading, switching, sequences, pins, ending and listing them. */
export function sessionMethods(state: MemoryStoreState): SessionMethods {
  return {
    pin(testId) {
      // A call arriving is a use: an already idle session is dropped now, a live one renewed.
      touch(state, testId, false);
      const { pins } = state;
      pins.set(testId, (pins.get(testId) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = pins.get(testId)! - 1;
        if (left === 0) {
          pins.delete(testId);
          // An idle session kept only for its pins is due for eviction at the next access.
          state.nextIdleAt = -Infinity;
        } else pins.set(testId, left);
      };
    },
    async read(testId) {
      return readNow(state, testId);
    },
    async activate(testId, active: ActiveScenario) {
      const session = touch(state, testId, true);
      session.active = active.variant === undefined ? { scenarioId: active.scenarioId } : { ...active };
      session.state = EMPTY_STATE;
      session.stateSizes = undefined;
      session.stateBytes = 0;
      session.positions = undefined;
      session.generation = String(++state.generations);
    },
    async advanceSequence(testId, sequenceKey, length, repeat: SequenceRepeat) {
      const session = touch(state, testId, true);
      session.positions ??= new Map();
      const position = session.positions.get(sequenceKey) ?? 0;
      const index = sequenceIndex(position, length, repeat);
      if (index !== undefined) session.positions.set(sequenceKey, position + 1);
      return index;
    },
    async end(testId) {
      const session = state.sessions.get(testId);
      if (session !== undefined) dropSession(state, testId, session);
    },
    async listSessions(cursor, limit, search) {
      return listSessions(state, cursor, limit, search);
    },
  };
}
