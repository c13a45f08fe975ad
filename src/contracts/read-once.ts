/**
 * What is read from an API document about one of its parts (an operation, a response, a
 * parameter), computed on the first check and kept with that part: a running app checks every
 * answered call, and walking the document again each time cost ten times the call itself.
 * Keyed by the part's object, so it lives exactly as long as the loaded document.
 */
export function readOnce<K extends object, V>(cache: WeakMap<K, V>, key: K, read: () => V): V {
  let value = cache.get(key);
  if (value === undefined && !cache.has(key)) {
    value = read();
    cache.set(key, value);
  }
  return value as V;
}
