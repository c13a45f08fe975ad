import type { JournalEntry } from '../core/journal/journal-entry.js';
import { quote } from '../core/dev-utils.js';
import { describeCall } from './describe-call.js';

/**
 * The failure of `expectNoContractViolations()`: every call whose journal entry lists
 * contract violations, each as its one line (method, URL, answer) and its violations below it;
 * `undefined` when there are none.
 */
export function describeContractViolations(entries: readonly JournalEntry[], testId: string): string | undefined {
  const broken = entries.filter((entry) => (entry.contractViolations?.length ?? 0) > 0);
  if (broken.length === 0) return undefined;
  const count = broken.reduce((sum, entry) => sum + entry.contractViolations!.length, 0);
  const listed = broken.map((entry) => `  ${describeCall(entry)}\n${entry.contractViolations!.map((violation) => `    - ${violation}`).join('\n')}`).join('\n');
  return `Expected the calls of test ${quote(testId)} to fit their API documents (createHarness({ contracts })), but ${broken.length === 1 ? '1 call' : `${broken.length} calls`} broke them (${count} ${count === 1 ? 'violation' : 'violations'}):\n${listed}\nFix the app's request or the mock's answer so it fits the document.`;
}
