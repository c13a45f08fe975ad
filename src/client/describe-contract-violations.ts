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
  // An `llm` answer's lines name the mock's `response.llm…` field: what they break is the request's own schemas, not a document.
  const lines = broken.flatMap((entry) => entry.contractViolations!);
  const llm = lines.filter((line) => line.startsWith('response.llm.')).length;
  const what = llm === 0 ? 'their API documents' : llm === lines.length ? "the schemas their requests sent (an llm answer's)" : 'their API documents and the schemas their requests sent';
  const fix = llm === 0 ? "Fix the app's request or the mock's answer so it fits the document." : llm === lines.length ? "Fix the mock's llm answer (or the schema the app sends) so they fit." : "Fix the app's request or the mock's answer so it fits the document and the request's schemas.";
  return `Expected the calls of test ${quote(testId)} to fit ${what} (createHarness({ contracts })), but ${broken.length === 1 ? '1 call' : `${broken.length} calls`} broke them (${count} ${count === 1 ? 'violation' : 'violations'}):\n${listed}\n${fix}`;
}
