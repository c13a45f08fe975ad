import { writeFile } from 'node:fs/promises';
import type { TestInfo } from '@playwright/test';
import { describeCall } from '../client/describe-call.js';
import type { HarnessClient } from '../client/harness-client.js';
import type { JournalEntry } from '../core/journal/journal-entry.js';
import { quote } from '../core/dev-utils.js';
import type { AppReadinessReport } from './read-app-readiness.js';

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

/**
 * Why a test may have made no call: the app does not serve its pages yet (a CLI such as `nuxt dev`
 * owns the port while it builds, and the harness answers there before the app does). `undefined`
 * when it serves, or when nothing could tell.
 */
function readinessNote(report: AppReadinessReport | undefined): string | undefined {
  if (report === undefined || report.serving) return undefined;
  return `${report.reason} The test may never have reached the app's code: start the tests once the app serves, by waiting for ${report.url} (webServer.url in playwright.config.ts).`;
}

/** One line per call, oldest first, under a heading that names the test ID; for none, why there may be none. */
export function journalSummary(testId: string, calls: readonly JournalEntry[], readiness?: AppReadinessReport): string {
  if (calls.length === 0) {
    const note = readinessNote(readiness);
    return `No outgoing call of test ${quote(testId)} was intercepted: its journal is empty.${note === undefined ? '' : ` ${note}`}`;
  }
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
 * summary, never thrown: the test's own failure is the one that matters. With `readReadiness`, an
 * empty journal's summary says so when the app does not serve its pages yet.
 */
export async function attachJournal(harness: Pick<HarnessClient, 'calls' | 'testId'>, testInfo: AttachTo, printSummary = false, readReadiness?: () => Promise<AppReadinessReport | undefined>): Promise<void> {
  let calls: JournalEntry[] | undefined;
  let summary: string;
  try {
    calls = await harness.calls();
    // An empty journal: was the app serving at all?
    const readiness = calls.length === 0 ? await readReadiness?.() : undefined;
    summary = journalSummary(harness.testId, calls, readiness);
  } catch (error) {
    summary = `Could not read the journal of test ${quote(harness.testId)}: ${(error as Error).message}`;
  }
  const summaryFile = testInfo.outputPath('scenario-harness-calls.txt');
  await writeFile(summaryFile, `${summary}\n`);
  await testInfo.attach(JOURNAL_ATTACHMENTS.summary, { contentType: 'text/plain', path: summaryFile });
  if (printSummary) process.stderr.write(`[scenario-harness] ${summary}\n`);
  if (calls !== undefined) await testInfo.attach(JOURNAL_ATTACHMENTS.journal, { contentType: 'application/json', body: JSON.stringify({ testId: harness.testId, calls }, null, 2) });
}
