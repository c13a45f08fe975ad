import { emptyRecord } from '../empty-record.js';
import type { JournalEntry } from './journal-entry.js';

/**
 * The entry with its request headers in name order, as `Headers` iterates them. Entries are kept
 * with their headers in the order the call sent them: sorting costs a read of the journal, not
 * every journaled call. An entry already in order is returned as it is.
 */
export function sortEntryHeaders(entry: JournalEntry): JournalEntry {
  const headers = entry.requestHeaders;
  const names = Object.keys(headers);
  let inOrder = true;
  for (let i = 1; i < names.length && inOrder; i++) inOrder = names[i - 1]! < names[i]!;
  if (inOrder) return entry;
  names.sort();
  const sorted = emptyRecord<string>();
  for (const name of names) sorted[name] = headers[name]!;
  return { ...entry, requestHeaders: sorted };
}
