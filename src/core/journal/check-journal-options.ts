import { didYouMean } from '../did-you-mean.js';
import { describeValue as describe, failOptions as fail } from '../option-problem.js';

const JOURNAL_OPTIONS = ['enabled', 'maxEntries', 'maxBodyBytes', 'maxEntryBytes', 'maxTotalBytes', 'redactHeaders', 'explainAnswered'];
/** The least `journal.maxEntryBytes` may be: room for an entry's own fields and a little of its headers. */
const MIN_ENTRY_BYTES = 1024;

/** `createHarness({ journal })`: an object of known keys with positive whole-number bounds, or `false`. */
export function checkJournalOptions(journal: unknown): void {
  if (journal === undefined || journal === false) return;
  if (typeof journal !== 'object' || journal === null || Array.isArray(journal)) fail(`expected "journal" to be an object or false, instead got ${describe(journal)}.`);
  for (const key of Object.keys(journal)) {
    if (JOURNAL_OPTIONS.includes(key)) continue;
    const near = didYouMean(key, JOURNAL_OPTIONS);
    fail(`"journal.${key}" is not a journal option${near === undefined ? '' : ` (did you mean "${near}"?)`}; use ${JOURNAL_OPTIONS.join(', ')}.`);
  }
  const options = journal as Record<string, unknown>;
  for (const name of ['maxEntries', 'maxBodyBytes', 'maxEntryBytes', 'maxTotalBytes']) {
    const value = options[name];
    if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) < 1)) fail(`expected "journal.${name}" to be a positive whole number, instead got ${describe(value)}.`);
  }
  const { maxEntryBytes, maxTotalBytes } = options as { maxEntryBytes?: number; maxTotalBytes?: number };
  if (maxEntryBytes !== undefined && maxEntryBytes < MIN_ENTRY_BYTES) fail(`expected "journal.maxEntryBytes" to be at least ${MIN_ENTRY_BYTES} (an entry's own fields take a few hundred bytes), instead got ${maxEntryBytes}.`);
  if (maxTotalBytes !== undefined && maxTotalBytes < (maxEntryBytes ?? MIN_ENTRY_BYTES)) {
    fail(`expected "journal.maxTotalBytes" (${maxTotalBytes}) to be at least journal.maxEntryBytes (${maxEntryBytes ?? MIN_ENTRY_BYTES}): the journals must hold one entry.`);
  }
}
