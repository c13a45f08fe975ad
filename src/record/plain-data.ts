/**
 * Small helpers for building plain data safely from parsed bodies, where any key may appear
 * (`__proto__` included).
 */

/** Set `key` as an own property: a key named `__proto__` stays data, never a prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** JSON with object keys sorted at every level: equal data, equal text. For keys and comparisons, not for files. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (!isPlainObject(item)) return item;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(item).sort()) setOwn(sorted, key, item[key]);
    return sorted;
  });
}

/** `a.b`, `a["x-y"]`, `a[0]`: a field path as messages show it. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path === '' ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`;
}

/** Every string or number leaf under `value`, as text. */
export function leafTexts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'bigint') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(leafTexts);
  if (isPlainObject(value)) return Object.values(value).flatMap(leafTexts);
  return [];
}

/** Object keys sorted, values as they are: header and query maps read in a stable order. */
export function sortedRecord<T>(entries: Iterable<[string, T]>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) setOwn(out, key, value);
  return out;
}

/** Parsed JSON when it is an object or an array; `undefined` otherwise (a scalar is kept as its text). */
export function parseJsonContainer(text: string): unknown {
  if (!/^\s*[{[]/.test(text)) return undefined; // most strings: no parse attempt
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
