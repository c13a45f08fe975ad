import type { StateChange } from './session-store.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The state changes a seed makes (`POST /__harness__/state`, `harness.setState`), by the rules
 * of `afterResponse.setState`: a key is a key, dots and all; `items[]` appends to `items`.
 * A string that says what is wrong when `state` is not an object of such keys.
 */
export function seedChanges(state: unknown): StateChange[] | string {
  if (!isPlainObject(state)) {
    return `"state" must be an object of keys to values, such as { "user.id": "u-1", "cart.items[]": { "sku": "a" } }, instead got ${state === null ? 'null' : Array.isArray(state) ? 'an array' : typeof state}`;
  }
  const changes: StateChange[] = [];
  for (const [name, value] of Object.entries(state)) {
    const append = name.endsWith('[]');
    const key = append ? name.slice(0, -2) : name;
    if (key === '') return `"state" has the key ${JSON.stringify(name)}: a key needs a name (write "items[]" to append to "items")`;
    if (value === undefined) return `"state.${name}" is undefined: give a value, or leave the key out`;
    changes.push({ key, value, append });
  }
  return changes;
}
