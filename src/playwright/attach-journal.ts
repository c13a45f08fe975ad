import type { TestInfo } from '@playwright/test';
import { describeCall } from '../client/describe-call.js';
import type { HarnessClient } from '../client/harness-client.js';
import type { JournalEntry } from '../core/journal/journal-entry.js';
import { quote } from '../core/dev-utils.js';

/** The attachments' names in the report. */
export const JOURNAL_ATTACHMENTS = Object.freeze({ summary: 'scenario-harness calls', journal: 'scenario-harness journal' });

/** One line per call, oldest first, under a heading that names the test ID. */
function summaryOf(testId: string, calls: readonly JournalEntry[]): string {
  if (calls.length === 0) return `No outgoing call of test ${quote(testId)} was intercepted: its journal is empty.`;
  const heading = `${calls.length === 1 ? '1 call' : `${calls.length} calls`} of test ${quote(testId)}, oldest first (the full entries are in "${JOURNAL_ATTACHMENTS.journal}"):`;
  return [heading, ...calls.map(describeCall)].join('\n');
}

/**
 * Attach the test's journal to its Playwright result: a short summary as text (the terminal
 * reporters print it under the failure) and every entry as JSON. A journal that cannot be read
 * (the journal is off, the app is gone) is said in the summary, never thrown: the test's own
 * failure is the one that matters.
 */
export async function attachJournal(harness: Pick<HarnessClient, 'calls' | 'testId'>, testInfo: Pick<TestInfo, 'attach'>): Promise<void> {
  let calls: JournalEntry[];
  try {
    calls = await harness.calls();
  } catch (error) {
    await testInfo.attach(JOURNAL_ATTACHMENTS.summary, { contentType: 'text/plain', body: `Could not read the journal of test ${quote(harness.testId)}: ${(error as Error).message}` });
    return;
  }
  await testInfo.attach(JOURNAL_ATTACHMENTS.summary, { contentType: 'text/plain', body: summaryOf(harness.testId, calls) });
  await testInfo.attach(JOURNAL_ATTACHMENTS.journal, { contentType: 'application/json', body: JSON.stringify({ testId: harness.testId, calls }, null, 2) });
}
