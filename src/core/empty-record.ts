/**
 * The prototype of the records the harness builds per call (headers, mostly): an empty frozen
 * object with no prototype of its own. A record made on it inherits nothing, as one made by
 * `Object.create(null)` does: no `constructor`, no `__proto__` setter (a header of that name stays
 * an ordinary key). Unlike a null-prototype object, V8 keeps it in fast mode, so filling,
 * walking and spreading it cost a half to a tenth as much, and `new Headers(it)` three quarters
 * (Node 22, 24 and 26, measured).
 */
const RECORD_ROOT: object = Object.freeze(Object.create(null) as object);

/** A new empty record that inherits nothing (see `RECORD_ROOT`). */
export function emptyRecord<T>(): Record<string, T> {
  return Object.create(RECORD_ROOT) as Record<string, T>;
}
