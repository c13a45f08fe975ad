import { HarnessError } from '../errors.js';
import type { JournalEntry, JournalFilter } from './journal-entry.js';
import { compileUrlFilter, urlFilterProblem } from './url-filter.js';

/** The entries a filter keeps, in their order; a `url` filter past its bound throws `INVALID_ARGUMENT`. */
export function filterCalls(entries: readonly JournalEntry[], filter: JournalFilter = {}): JournalEntry[] {
  const method = filter.method?.toUpperCase();
  // The filter may come from a query string: its length is bounded, and `*` is matched in one pass.
  const problem = filter.url === undefined ? undefined : urlFilterProblem(filter.url);
  if (problem !== undefined) throw new HarnessError('INVALID_ARGUMENT', `Invalid journal filter: ${problem}.`);
  const url = filter.url === undefined ? undefined : compileUrlFilter(filter.url);
  return entries.filter(
    (entry) =>
      (method === undefined || entry.method === method) &&
      (url === undefined || url(entry.url)) &&
      (filter.unanswered !== true || !entry.answered) &&
      (filter.mockId === undefined || entry.mockId === filter.mockId),
  );
}
