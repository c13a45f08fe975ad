import { starGlob } from '../engine/glob-matcher.js';
import type { JournalEntry, JournalFilter } from './journal-entry.js';

/** The entries a filter keeps, in their order. */
export function filterCalls(entries: readonly JournalEntry[], filter: JournalFilter = {}): JournalEntry[] {
  const method = filter.method?.toUpperCase();
  // `*` is any run of characters, matched in linear time: the filter comes from a query string.
  const url = filter.url === undefined ? undefined : filter.url.includes('*') ? starGlob(filter.url) : filter.url;
  return entries.filter(
    (entry) =>
      (method === undefined || entry.method === method) &&
      (url === undefined || (typeof url === 'string' ? entry.url.includes(url) : url.exec(entry.url) !== undefined)) &&
      (filter.unanswered !== true || !entry.answered) &&
      (filter.mockId === undefined || entry.mockId === filter.mockId),
  );
}
