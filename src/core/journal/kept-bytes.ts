import type { JournalEntry } from './journal-entry.js';

/**
 * V8's sizes on a 64-bit build, in bytes: what a journal entry's parts retain on the heap.
 * @note Checked against `process.memoryUsage().heapUsed` (Node 20, x64, full GCs around the
 * calls): an 8 KB body `[[],[],…]` parsed retains 2,730 empty arrays of 32 bytes plus a slot of 8
 * each in its parent (108.7 KiB an entry), which these constants reproduce within a few percent.
 */
const STRING_HEADER = 16;
const ARRAY_HEADER = 32;
const OBJECT_HEADER = 24;
const ELEMENTS_HEADER = 16;
const SLOT = 8;
const HEAP_NUMBER = 16;

/** Any character above U+00FF makes V8 keep the whole string at two bytes a character. */
const TWO_BYTE = /[\u0100-\uffff]/;

/** A string's size: header plus one or two bytes a character, rounded up to the heap's 8-byte alignment. */
export function stringBytes(text: string): number {
  const perChar = text.length > 0 && TWO_BYTE.test(text) ? 2 : 1;
  return (STRING_HEADER + text.length * perChar + 7) & ~7;
}

/**
 * An estimate of the heap bytes `value` retains: plain data as `JSON.parse` and the body parsers
 * make it (strings, numbers, booleans, null, arrays, plain objects). Slots count to their
 * container; a key that repeats in the value counts once, as V8 keeps one copy of a parsed key.
 */
export function keptBytes(value: unknown): number {
  /** Created on the first object key: most values have none. */
  let keys: Set<string> | undefined;
  const visit = (item: unknown): number => {
    if (typeof item === 'string') return stringBytes(item);
    if (typeof item === 'number') return Number.isInteger(item) && Math.abs(item) < 2 ** 30 ? 0 : HEAP_NUMBER;
    if (typeof item !== 'object' || item === null) return 0;
    if (Array.isArray(item)) {
      let bytes = ARRAY_HEADER + (item.length > 0 ? ELEMENTS_HEADER + item.length * SLOT : 0);
      for (const element of item) bytes += visit(element);
      return bytes;
    }
    let bytes = OBJECT_HEADER;
    for (const key in item) {
      if (!Object.hasOwn(item, key)) continue;
      bytes += SLOT + visit((item as Record<string, unknown>)[key]);
      keys ??= new Set();
      if (keys.has(key)) continue;
      keys.add(key);
      bytes += stringBytes(key);
    }
    return bytes;
  };
  return visit(value);
}

/**
 * The heap bytes one journal entry retains, as `keptBytes` counts them, without its field names:
 * every entry shares one copy of each. Header names are unique within an entry, so they are
 * summed without the bookkeeping a parsed body needs. An upper bound in spirit: strings the entry
 * shares with the call (the method, a header value) count as its own.
 */
export function entryKeptBytes(entry: JournalEntry): number {
  let bytes = OBJECT_HEADER;
  for (const field in entry) {
    const value = (entry as unknown as Record<string, unknown>)[field];
    bytes += SLOT;
    if (field === 'requestHeaders') {
      bytes += OBJECT_HEADER;
      for (const name in entry.requestHeaders) bytes += SLOT + stringBytes(name) + stringBytes(entry.requestHeaders[name]!);
    } else if (typeof value === 'string') bytes += stringBytes(value);
    else if (typeof value === 'object' && value !== null) bytes += keptBytes(value);
    else if (typeof value === 'number' && !Number.isInteger(value)) bytes += HEAP_NUMBER;
  }
  return bytes;
}
