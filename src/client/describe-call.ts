import type { JournalEntry } from '../core/journal/journal-entry.js';

/** The answering mock's key, as near misses name mocks: `checkout#0`, `checkout~slow#1`, `(test)#0` for the test's own. */
export function mockKeyOf(entry: JournalEntry): string {
  if (entry.layer === 'test') return `(test)#${entry.mockIndex ?? '?'}`;
  return `${entry.scenarioId ?? '?'}${entry.layer === 'variant' && entry.variant !== undefined ? `~${entry.variant}` : ''}#${entry.mockIndex ?? '?'}`;
}

/**
 * One journal entry as one line:
 * `POST https://api.stripe.com/v1/charges → 201 by checkout#0 "charge-5000"`, or
 * `GET https://api.x.test/users → unanswered (failed): <its first near miss>`.
 */
export function describeCall(entry: JournalEntry): string {
  // The browser's calls are marked: a failed test's summary shows both sides in the order they came.
  const call = `${entry.side === 'browser' ? '(browser) ' : ''}${entry.method} ${entry.url}`;
  if (!entry.answered) {
    const [nearest] = entry.nearMisses ?? [];
    return `${call} → unanswered (${entry.unhandled ?? 'no mock answered'})${nearest === undefined ? '' : `: ${nearest}`}`;
  }
  const answer = entry.fault === undefined ? String(entry.status) : `${entry.fault} error`;
  const step = entry.step === undefined ? '' : ` (step ${entry.step})`;
  const delay = entry.delayMs === undefined ? '' : `, after ${entry.delayMs} ms`;
  return `${call} → ${answer} by ${mockKeyOf(entry)}${entry.mockId === undefined ? '' : ` ${JSON.stringify(entry.mockId)}`}${step}${delay}`;
}
