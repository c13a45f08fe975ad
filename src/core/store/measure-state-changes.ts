import type { StateChange, TestState } from './session-store.js';

/** What JSON holds for a value that has none (`undefined`, a function): nothing as a key's value, `null` as an array item. */
const NULL_BYTES = 4;

/**
 * A value's size as JSON, in UTF-8 bytes; `undefined` when JSON holds nothing for it. A value
 * JSON cannot write (a cycle, a BigInt, given to `harness.setState` in process) counts as `null`.
 */
function jsonBytes(value: unknown): number | undefined {
  // The common small values, without writing their JSON (a number's JSON is its String, when finite).
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : NULL_BYTES;
  if (typeof value === 'boolean') return value ? 4 : 5;
  if (value === null) return NULL_BYTES;
  try {
    const json = JSON.stringify(value) as string | undefined;
    return json === undefined ? undefined : Buffer.byteLength(json);
  } catch {
    return NULL_BYTES;
  }
}

/** The changes' effect on a state's size: the new size of each key they touch (`undefined`: gone), and how much the state grows. */
export interface StateSizeChange {
  sizes: Map<string, number | undefined>;
  delta: number;
}

/** How an append sees what a key holds: nothing, an empty array, a longer array, or another value. */
type Held = 'none' | 'empty' | 'array' | 'other';

function heldOf(value: unknown): Held {
  if (value === undefined) return 'none';
  if (!Array.isArray(value)) return 'other';
  return value.length === 0 ? 'empty' : 'array';
}

/**
 * Measure what `changes` do to a state's size, as `applyStateChanges` would apply them, without
 * writing JSON of what the state already holds: an append adds its item (and a comma), so a
 * long `items[]` list costs nothing to measure again. A key's size is its name and its value as
 * JSON, in UTF-8 bytes — what the Redis store keeps for it, so both stores count alike.
 * `sizes` holds each key's value size; a key missing from it is measured once from `state`.
 */
export function measureStateChanges(state: TestState, sizes: ReadonlyMap<string, number> | undefined, changes: readonly StateChange[]): StateSizeChange {
  const touched = new Map<string, number | undefined>();
  const shapes = new Map<string, Held>();
  let delta = 0;
  for (const { key, value, append } of changes) {
    const current = Object.hasOwn(state, key) ? state[key] : undefined;
    const before = touched.has(key) ? touched.get(key) : current === undefined ? undefined : (sizes?.get(key) ?? jsonBytes(current));
    const held = shapes.get(key) ?? heldOf(current);
    let after: number | undefined;
    if (!append) {
      after = jsonBytes(value);
      shapes.set(key, after === undefined ? 'none' : heldOf(value));
    } else {
      const item = jsonBytes(value) ?? NULL_BYTES;
      // `[item]`, `[...,item]`, or `[current,item]`: what applyStateChanges makes of each.
      after = held === 'none' || held === 'empty' ? item + 2 : (before ?? NULL_BYTES) + item + (held === 'array' ? 1 : 3);
      shapes.set(key, 'array');
    }
    const name = Buffer.byteLength(key);
    delta += (after === undefined ? 0 : name + after) - (before === undefined ? 0 : name + before);
    touched.set(key, after);
  }
  return { sizes: touched, delta };
}
