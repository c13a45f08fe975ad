import { writeFile } from 'node:fs/promises';
import type { TestInfo } from '@playwright/test';
import { describeCall } from '../client/describe-call.js';
import type { HarnessClient } from '../client/harness-client.js';
import type { JournalEntry } from '../core/journal/journal-entry.js';
import { quote } from '../core/dev-utils.js';

/** The attachments' names in the report. */
export const JOURNAL_ATTACHMENTS = Object.freeze({ summary: 'scenario-harness calls', journal: 'scenario-harness journal' });

/**
 * One call: its line, and under an unanswered one every near miss (why no mock answered it), not
 * only the first; under one that broke its API document (`contracts`), every violation.
 */
function linesOf(entry: JournalEntry): string[] {
  if (entry.answered) return [describeCall(entry), ...(entry.contractViolations ?? []).map((violation) => `    contract: ${violation}`)];
  if (entry.nearMisses === undefined || entry.nearMisses.length < 2) return [describeCall(entry)];
  return [`${entry.method} ${entry.url} → unanswered (${entry.unhandled ?? 'no mock answered'}); no mock answered it:`, ...entry.nearMisses.map((line) => `    ${line}`)];
}

/** One line per call, oldest first, under a heading that names the test ID. */
export function journalSummary(testId: string, calls: readonly JournalEntry[]): string {
  if (calls.length === 0) return `No outgoing call of test ${quote(testId)} was intercepted: its journal is empty.`;
  const heading = `${calls.length === 1 ? '1 call' : `${calls.length} calls`} of test ${quote(testId)}, oldest first (the full entries are in "${JOURNAL_ATTACHMENTS.journal}"):`;
  return [heading, ...calls.flatMap(linesOf)].join('\n');
}

type AttachTo = Pick<TestInfo, 'attach' | 'outputPath'>;

/**
 * Attach the test's journal to its Playwright result: a summary as text and every entry as JSON.
 * The summary is attached as a file: Playwright's terminal reporters print a text attachment's
 * body cut at 300 characters (its path in full), so with `printSummary` (a failed test) the whole
 * summary also goes to stderr, which the list, line and failures reporters print under the test's
 * title. A journal that cannot be read (the journal is off, the app is gone) is said in the
 * summary, never thrown: the test's own failure is the one that matters.
 */
export async function attachJournal(harness: Pick<HarnessClient, 'calls' | 'testId'>, testInfo: AttachTo, printSummary = false): Promise<void> {
  let calls: JournalEntry[] | undefined;
  let summary: string;
  try {
    calls = await harness.calls();
    summary = journalSummary(harness.testId, calls);
  } catch (error) {
    summary = `Could not read the journal of test ${quote(harness.testId)}: ${(error as Error).message}`;
  }
  const summaryFile = testInfo.outputPath('scenario-harness-calls.txt');
  await writeFile(summaryFile, `${summary}\n`);
  await testInfo.attach(JOURNAL_ATTACHMENTS.summary, { contentType: 'text/plain', path: summaryFile });
  if (printSummary) process.stderr.write(`[scenario-harness] ${summary}\n`);
  if (calls !== undefined) await testInfo.attach(JOURNAL_ATTACHMENTS.journal, { contentType: 'application/json', body: JSON.stringify({ testId: harness.testId, calls }, null, 2) });
}
