import type { JournalEntry, JournalFilter } from './journal-entry.js';

/** `*` is any run of characters; everything else is literal. */
function globToRegExp(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

/** The entries a filter keeps, in their order. */
export function filterCalls(entries: readonly JournalEntry[], filter: JournalFilter = {}): JournalEntry[] {
  const method = filter.method?.toUpperCase();
  const url = filter.url === undefined ? undefined : filter.url.includes('*') ? globToRegExp(filter.url) : filter.url;
  return entries.filter(
    (entry) =>
      (method === undefined || entry.method === method) &&
      (url === undefined || (typeof url === 'string' ? entry.url.includes(url) : url.test(entry.url))) &&
      (filter.unanswered !== true || !entry.answered) &&
      (filter.mockId === undefined || entry.mockId === filter.mockId),
  );
}
