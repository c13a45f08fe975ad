import { applyStateChanges } from '../apply-state-changes.js';
import { measureStateChanges } from '../measure-state-changes.js';
import type { SessionStore, StateChange, StateLimits } from '../session-store.js';
import { touch } from './sessions.js';
import type { MemoryStoreState } from './store-state.js';

export type StateMethods = Pick<SessionStore, 'updateState'>;

/** A test's state, bounded in size (`limits.maxBytes`). */
export function stateMethods(state: MemoryStoreState): StateMethods {
  return {
    async updateState(testId, changes: readonly StateChange[], generation?: string | null, limits?: StateLimits) {
      // `null` as `undefined`: a store reached over JSON (a process tree's host) gets a missing generation as null.
      if (typeof generation === 'string' && (state.sessions.get(testId)?.generation ?? '') !== generation) return;
      const session = touch(state, testId, true);
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
  };
}
