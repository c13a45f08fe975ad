import { quote } from '../core/dev-utils.js';
import type { JournalEntry } from '../core/journal/journal-entry.js';
import type { SessionStore } from '../core/store/session-store.js';
import { lua } from './_lua-scripts.js';
import type { RedisContext } from './_redis-context.js';

/*
 * A test's journal is a list beside its session hash (`RedisContext.journalKey`), one JSON entry
 * per call, oldest first.
 */

/** KEYS[1] the journal list (or the recorded exchanges, _recording.ts): ARGV[2] one JSON entry, ARGV[3] how many entries to keep. */
export const APPEND_CALL_SCRIPT = lua(
  'appendCall',
  `redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[3]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`,
);

/** KEYS[1] the journal list → its JSON entries, oldest first. */
const READ_CALLS_SCRIPT = lua(
  'readCalls',
  `local entries = redis.call('LRANGE', KEYS[1], 0, -1)
if #entries > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return entries`,
);

const CLEAR_CALLS_SCRIPT = lua('clearCalls', `return redis.call('DEL', KEYS[1])`);

export type JournalMethods = Required<Pick<SessionStore, 'appendCall' | 'readCalls' | 'clearCalls'>>;

/** Each test's journal of calls, bounded per test by count. */
export function journalMethods({ call, journalKey }: RedisContext): JournalMethods {
  return {
    // The entry comes bounded by journal.maxEntryBytes; Redis keeps `maxEntries` of them per test until the session expires (no total).
    async appendCall(testId, entry: JournalEntry, maxEntries: number) {
      await call(() => `record a call of test ${quote(testId)}`, APPEND_CALL_SCRIPT, testId, [JSON.stringify(entry), String(maxEntries)], [journalKey(testId)]);
    },
    async readCalls(testId) {
      const entries = (await call(() => `read the journal of test ${quote(testId)}`, READ_CALLS_SCRIPT, testId, [], [journalKey(testId)])) as unknown[];
      return entries.map((entry) => JSON.parse(String(entry)) as JournalEntry);
    },
    async clearCalls(testId) {
      await call(() => `clear the journal of test ${quote(testId)}`, CLEAR_CALLS_SCRIPT, testId, [], [journalKey(testId)]);
    },
  };
}
