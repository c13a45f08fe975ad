import type { StateChange, TestState } from './session-store.js';

/**
 * A new state object with `changes` applied; `state` itself is left untouched.
 * @note Null-prototype objects, so keys such as `__proto__` stay ordinary keys.
 */
export function applyStateChanges(state: TestState, changes: readonly StateChange[]): TestState {
  const next: Record<string, unknown> = Object.assign(Object.create(null) as Record<string, unknown>, state);
  for (const { key, value, append } of changes) {
    if (append) {
      const current = Object.hasOwn(next, key) ? next[key] : undefined;
      next[key] = Array.isArray(current) ? [...current, value] : current === undefined ? [value] : [current, value];
    } else {
      next[key] = value;
    }
  }
  return next;
}

/** The state every session starts with. */
export const EMPTY_STATE: TestState = Object.freeze(Object.create(null) as Record<string, unknown>);
