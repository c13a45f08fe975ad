import type { JournalEntry } from './journal-entry.js';

/**
 * V8's sizes on a 64-bit build, in bytes: what a journal entry's parts retain on the heap.
 * @note Checked against `process.memoryUsage().heapUsed` (Node 22, 24 and 26, x64, full GCs
 * around the calls): an 8 KB body `[[],[],…]` parsed retains 2,730 empty arrays of 32 bytes plus a
 * slot of 8 each in its parent (106.7 KiB an entry on all three), which these constants reproduce
 * to within 0.1%.
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
 * The size of a string known to hold no character above U+00FF: header names and values (HTTP
 * keeps them as bytes), URLs, times. No scan for wide characters on every call's entry.
 */
function narrowStringBytes(text: string): number {
  return (STRING_HEADER + text.length + 7) & ~7;
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

/** A field's slot, when the entry has the field. */
const slotOf = (field: unknown): number => (field === undefined ? 0 : SLOT);

/**
 * The heap bytes one journal entry retains, as `keptBytes` counts them: its own strings (the
 * time, method, URL, headers, near misses, contract violations) and its body, and a slot for every other field. Not
 * its field names (every entry shares one copy of each), nor the scenario, mock, variant and
 * outcome names it points at (the compiled scenarios hold those). Header names are unique within
 * an entry, and header values, the URL and the time hold only narrow characters, so they are
 * summed without a key set or a scan for wide characters: this runs for every journaled call.
 * An upper bound in spirit: strings the entry shares with the call count as its own.
 */
export function entryKeptBytes(entry: JournalEntry): number {
  // The object, its six fields always there (at, method, url, requestHeaders, answered, durationMs), the duration's heap number.
  let bytes = OBJECT_HEADER + 6 * SLOT + HEAP_NUMBER + narrowStringBytes(entry.at) + narrowStringBytes(entry.method) + narrowStringBytes(entry.url) + OBJECT_HEADER;
  const headers = entry.requestHeaders;
  for (const name in headers) bytes += SLOT + narrowStringBytes(name) + narrowStringBytes(headers[name]!);
  if (entry.requestBody !== undefined) bytes += SLOT + keptBytes(entry.requestBody);
  if (entry.nearMisses !== undefined) bytes += SLOT + keptBytes(entry.nearMisses);
  if (entry.contractViolations !== undefined) bytes += SLOT + keptBytes(entry.contractViolations);
  return (
    bytes +
    slotOf(entry.requestBodyTruncated) +
    slotOf(entry.scenarioId) +
    slotOf(entry.variant) +
    slotOf(entry.layer) +
    slotOf(entry.mockIndex) +
    slotOf(entry.mockId) +
    slotOf(entry.status) +
    slotOf(entry.fault) +
    slotOf(entry.delayMs) +
    slotOf(entry.step) +
    slotOf(entry.unhandled)
  );
}
