import type { JournalEntry } from './journal-entry.js';
import { entryKeptBytes, keptBytes, stringBytes } from './kept-bytes.js';

/** Where a cut header value, URL or near-miss line ends, so a reader sees it was cut (ASCII: '…' would make V8 keep the string at two bytes a character). */
const CUT = '...';
/** Room kept for the body when the rest of an entry is cut: a few characters of its text and the fields that carry it. */
const BODY_RESERVE = 160;
/** A header value, URL or near-miss line longer than this is cut when the rest of an entry alone is over its bound. */
const LONG_STRING = 256;

/** A journal entry as it is kept, with its kept size (`entryKeptBytes`). */
export interface BoundedEntry {
  entry: JournalEntry;
  bytes: number;
}

/** `text` cut to at most `bytes` kept bytes, at a character boundary (`requestBodyTruncated` says it was cut). */
function cutText(text: string, bytes: number): string {
  const perChar = stringBytes(text) >= 16 + 2 * text.length ? 2 : 1;
  let end = Math.max(0, Math.floor((bytes - 16 - 7) / perChar));
  if (end >= text.length) return text;
  // Never half a surrogate pair.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end -= 1;
  return text.slice(0, end);
}

/** The entry with its long strings cut, then with the headers and near misses that still do not fit left out. */
function cutRest(entry: JournalEntry, maxEntryBytes: number): JournalEntry {
  const cut = (text: string) => (text.length > LONG_STRING ? text.slice(0, LONG_STRING) + CUT : text);
  const cutEntry: JournalEntry = { ...entry, url: cut(entry.url), requestHeaders: {} };
  if (entry.nearMisses !== undefined) cutEntry.nearMisses = [];
  if (entry.contractViolations !== undefined) cutEntry.contractViolations = [];
  let bytes = entryKeptBytes(cutEntry);
  for (const [name, value] of Object.entries(entry.requestHeaders)) {
    const kept = cut(value);
    const more = 8 + stringBytes(name) + stringBytes(kept);
    if (bytes + more > maxEntryBytes) break;
    cutEntry.requestHeaders[name] = kept;
    bytes += more;
  }
  for (const [lines, keptLines] of [[entry.contractViolations, cutEntry.contractViolations], [entry.nearMisses, cutEntry.nearMisses]] as const) {
    for (const line of lines ?? []) {
      const kept = cut(line);
      const more = 8 + stringBytes(kept);
      if (bytes + more > maxEntryBytes) break;
      keptLines!.push(kept);
      bytes += more;
    }
  }
  return cutEntry;
}

/**
 * The entry as the journal keeps it: at most `maxEntryBytes` of heap (as `entryKeptBytes` estimates
 * it), whatever the call sent.
 * - A parsed body that takes more than its room is kept as its text (`bodyText()`, already cut at
 *   `maxBodyBytes`) instead, and `requestBodyTruncated` says the parsed form is not there: 8 KB of
 *   `[[],[],…]` is 8 KB of text but 109 KiB of arrays.
 * - A text that still does not fit is cut.
 * - When the rest of the entry alone is over (an app that sends huge headers or URLs), its header
 *   values, URL, contract violations and near-miss lines are cut to 256 characters (ending with `...`), and the headers and near misses
 *   that still do not fit are left out; the body then keeps what room is left, if any.
 * The common entry (under the bound) is returned as it is, measured once.
 */
export function boundEntry(entry: JournalEntry, bodyText: () => string | undefined, maxEntryBytes: number): BoundedEntry {
  const bytes = entryKeptBytes(entry);
  if (bytes <= maxEntryBytes) return { entry, bytes };
  const { requestBody, requestBodyTruncated, ...withoutBody } = entry;
  let rest: JournalEntry = withoutBody;
  const hasBody = requestBody !== undefined || requestBodyTruncated !== undefined;
  const restBound = hasBody ? maxEntryBytes - BODY_RESERVE : maxEntryBytes;
  if (entryKeptBytes(rest) > restBound) rest = cutRest(rest, restBound);
  if (!hasBody) return { entry: rest, bytes: entryKeptBytes(rest) };
  // The body's room: what the rest leaves, less the slots of the two fields that carry it.
  const room = maxEntryBytes - entryKeptBytes(rest) - 2 * 8;
  let kept = requestBody;
  let truncated = requestBodyTruncated;
  if (requestBody === undefined || keptBytes(requestBody) > room) {
    const text = typeof requestBody === 'string' ? requestBody : (bodyText() ?? '');
    kept = cutText(text, room);
    if (kept !== requestBody) truncated = true;
  }
  // The body goes back after the headers, where the journal shows it.
  const { at, method, url, requestHeaders, ...after } = rest;
  const bounded: JournalEntry =
    truncated === undefined ? { at, method, url, requestHeaders, requestBody: kept, ...after } : { at, method, url, requestHeaders, requestBody: kept, requestBodyTruncated: true, ...after };
  return { entry: bounded, bytes: entryKeptBytes(bounded) };
}
