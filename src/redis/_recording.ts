import { quote } from '../core/dev-utils.js';
import type { RecordedExchange, RecordMode } from '../core/recording/recorded-exchange.js';
import type { SessionStore } from '../core/store/session-store.js';
import { APPEND_CALL_SCRIPT } from './_journal.js';
import { lua } from './_lua-scripts.js';
import type { RedisContext } from './_redis-context.js';

/*
 * A recording test's mode is the session hash's `r` field; the exchanges it captured are a list
 * beside the session (`RedisContext.recordedKey`), appended to as the journal is.
 */

/** ARGV[2] the mode, or '' to stop recording. */
const SET_RECORDING_SCRIPT = lua(
  'setRecording',
  `if ARGV[2] == '' then redis.call('HDEL', KEYS[1], 'r') else redis.call('HSET', KEYS[1], 'r', ARGV[2]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`,
);

/** KEYS[1] the recorded list → its JSON entries, oldest first; ARGV[2] '1' empties it. */
const READ_RECORDED_SCRIPT = lua(
  'readRecorded',
  `local entries = redis.call('LRANGE', KEYS[1], 0, -1)
if ARGV[2] == '1' then redis.call('DEL', KEYS[1]) elseif #entries > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return entries`,
);

export type RecordingMethods = Required<Pick<SessionStore, 'setRecording' | 'appendRecorded' | 'readRecorded'>>;

/** A recording test's mode and the exchanges it captured, the newest `maxEntries` kept. */
export function recordingMethods({ call, recordedKey }: RedisContext): RecordingMethods {
  return {
    async setRecording(testId, mode: RecordMode | undefined) {
      await call(() => `set recording for test ${quote(testId)}`, SET_RECORDING_SCRIPT, testId, [mode ?? '']);
    },
    async appendRecorded(testId, exchange: RecordedExchange, maxEntries: number) {
      await call(() => `record an exchange of test ${quote(testId)}`, APPEND_CALL_SCRIPT, testId, [JSON.stringify(exchange), String(maxEntries)], [recordedKey(testId)]);
    },
    async readRecorded(testId, { clear = false } = {}) {
      const entries = (await call(() => `read the recording of test ${quote(testId)}`, READ_RECORDED_SCRIPT, testId, [clear ? '1' : '0'], [recordedKey(testId)])) as unknown[];
      return entries.map((entry) => JSON.parse(String(entry)) as RecordedExchange);
    },
  };
}
