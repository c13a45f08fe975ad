import type { JournalEntry } from '../core/journal/journal-entry.js';
import type { CompiledCallFilter } from './compile-call-filter.js';
import { describeCall } from './describe-call.js';

/** Near calls explained in a failure message: enough to see the pattern, not a dump. */
const MAX_NEAR = 5;
/** The test's calls listed after them, newest kept. */
const MAX_LISTED = 20;

/**
 * What a failed verification shows of the test's journal: the calls closest to the filter (its
 * URL, else its method), each with the first criterion it fails, and for an unanswered one the
 * journal's own near misses (why no mock answered it); then the test's calls, one line each.
 */
export function describeCallsSeen(entries: readonly JournalEntry[], filter: CompiledCallFilter): string {
  if (entries.length === 0) return 'The test made no intercepted call: its journal is empty.';
  const lines: string[] = [];
  const near = entries.filter((entry) => filter.isNear(entry) && filter.reasonFor(entry) !== undefined);
  if (near.length > 0) {
    lines.push(`Closest calls, and why each does not match${near.length > MAX_NEAR ? ` (the last ${MAX_NEAR} of ${near.length})` : ''}:`);
    for (const entry of near.slice(-MAX_NEAR)) {
      lines.push(`  ${entry.answered ? describeCall(entry) : `${entry.method} ${entry.url} → unanswered (${entry.unhandled ?? 'no mock answered'})`}`);
      lines.push(`      ${filter.reasonFor(entry)}`);
      if (!entry.answered && entry.nearMisses !== undefined && entry.nearMisses.length > 0) {
        lines.push('      no mock answered it:', ...entry.nearMisses.map((line) => `        ${line}`));
      }
    }
  }
  const listed = entries.slice(-MAX_LISTED);
  lines.push(`The test's calls (${listed.length < entries.length ? `the last ${listed.length} of ${entries.length}` : entries.length}, oldest first):`);
  for (const entry of listed) lines.push(`  ${describeCall(entry)}`);
  return lines.join('\n');
}
