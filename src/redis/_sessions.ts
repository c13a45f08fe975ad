import { randomBytes } from 'node:crypto';
import { quote } from '../core/dev-utils.js';
import type { RecordMode } from '../core/recording/recorded-exchange.js';
import type { SequenceRepeat, SessionSnapshot, SessionStore, TestState } from '../core/store/session-store.js';
import type { ActiveScenario } from '../core/types.js';
import { listSessions } from './_list-sessions.js';
import { lua } from './_lua-scripts.js';
import type { RedisContext } from './_redis-context.js';

/**
 * → nil for an unknown test ID, else a flat [field, value, ...] list without the positions and
 * without the test's own mocks (only their version, `m`): every intercepted call reads this,
 * and compiles the mocks once per version (READ_MOCKS_SCRIPT).
 */
const READ_SCRIPT = lua(
  'read',
  `local all = redis.call('HGETALL', KEYS[1])
if #all == 0 then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
local out = {}
for i = 1, #all, 2 do
  local field = all[i]
  if string.sub(field, 1, 2) ~= 'p:' and field ~= 'ml' and field ~= 'mn' and field ~= 'mb' and field ~= 'mp' and field ~= 'sb' then
    out[#out + 1] = field
    out[#out + 1] = all[i + 1]
  end
end
return out`,
);

/**
 * ARGV[2] generation token, ARGV[3] scenario ID, ARGV[4] variant (optional): replaces the whole
 * session in one step, but for the recording mode and the test's own mocks, and any being added
 * (their positions go).
 */
const ACTIVATE_SCRIPT = lua(
  'activate',
  `local kept = redis.call('HMGET', KEYS[1], 'r', 'm', 'ml', 'mn', 'mb', 'mp')
redis.call('DEL', KEYS[1])
if ARGV[4] then
  redis.call('HSET', KEYS[1], 'g', ARGV[2], 'a', ARGV[3], 'v', ARGV[4])
else
  redis.call('HSET', KEYS[1], 'g', ARGV[2], 'a', ARGV[3])
end
if kept[1] then redis.call('HSET', KEYS[1], 'r', kept[1]) end
if kept[2] then redis.call('HSET', KEYS[1], 'm', kept[2], 'ml', kept[3], 'mn', kept[4], 'mb', kept[5]) end
if kept[6] then redis.call('HSET', KEYS[1], 'mp', kept[6]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`,
);

/**
 * ARGV[2] position field, ARGV[3] length, ARGV[4] repeat → the index to serve, or -1 once a
 * 'none' sequence is used up. Same rule as `sequenceIndex` in core; stored positions stay
 * below the length for 'last' and 'cycle' so they never grow.
 */
const ADVANCE_SCRIPT = lua(
  'advanceSequence',
  `local position = tonumber(redis.call('HGET', KEYS[1], ARGV[2]) or '0')
local length = tonumber(ARGV[3])
local index = -1
local nextPosition = position + 1
if position < length then
  index = position
  if ARGV[4] == 'cycle' then nextPosition = (position + 1) % length end
  if ARGV[4] == 'last' and nextPosition > length - 1 then nextPosition = length - 1 end
elseif ARGV[4] == 'cycle' then
  index = position % length
  nextPosition = (index + 1) % length
elseif ARGV[4] == 'last' then
  index = length - 1
  nextPosition = length - 1
end
if index >= 0 then redis.call('HSET', KEYS[1], ARGV[2], tostring(nextPosition)) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return index`,
);

/**
 * KEYS[1] the session, KEYS[2] its journal, KEYS[3] its recorded exchanges: ending a test forgets
 * them all → the bytes its own mocks held (for the store-wide total).
 */
const END_SCRIPT = lua(
  'end',
  `local held = tonumber(redis.call('HGET', KEYS[1], 'mb') or '0')
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return held`,
);

/** `[field, value, ...]` from the read script → the session; state in a null-prototype object. */
function toSnapshot(reply: unknown): SessionSnapshot | undefined {
  if (!Array.isArray(reply)) return undefined;
  const state = Object.create(null) as Record<string, unknown>;
  let scenarioId: string | undefined;
  let variant: string | undefined;
  let generation = '';
  let recording: RecordMode | undefined;
  let mocks: string | undefined;
  for (let i = 0; i + 1 < reply.length; i += 2) {
    const field = String(reply[i]);
    const value = String(reply[i + 1]);
    if (field === 'a') scenarioId = value;
    else if (field === 'v') variant = value;
    else if (field === 'g') generation = value;
    else if (field === 'r') recording = value as RecordMode;
    else if (field === 'm') mocks = value;
    // A key such as `__proto__` stays an ordinary key: the object has no prototype to set.
    else if (field.startsWith('s:')) state[field.slice(2)] = JSON.parse(value) as unknown;
  }
  const frozen: TestState = Object.freeze(state);
  const extra = { generation, ...(recording === undefined ? {} : { recording }), ...(mocks === undefined ? {} : { mocks }) };
  if (scenarioId === undefined) return { state: frozen, ...extra };
  return { active: variant === undefined ? { scenarioId } : { scenarioId, variant }, state: frozen, ...extra };
}

export type SessionMethods = Pick<SessionStore, 'read' | 'activate' | 'advanceSequence' | 'end'> & Required<Pick<SessionStore, 'listSessions'>>;

/** The sessions themselves: reading, switching, sequences, ending and listing them. */
export function sessionMethods(context: RedisContext): SessionMethods {
  const { call, prefix, journalKey, recordedKey, mockTotals } = context;
  return {
    async read(testId) {
      return toSnapshot(await call(() => `read the session of test ${quote(testId)}`, READ_SCRIPT, testId, []));
    },
    async activate(testId, active: ActiveScenario) {
      // A token unique across processes: calls that read the session before this switch cannot write into it.
      const generation = randomBytes(9).toString('base64url');
      const args = active.variant === undefined ? [generation, active.scenarioId] : [generation, active.scenarioId, active.variant];
      await call(() => `activate scenario ${quote(active.scenarioId)} for test ${quote(testId)}`, ACTIVATE_SCRIPT, testId, args);
    },
    async advanceSequence(testId, sequenceKey, length, repeat: SequenceRepeat) {
      const what = () => `advance a sequence of test ${quote(testId)}`;
      const index = Number(await call(what, ADVANCE_SCRIPT, testId, [`p:${sequenceKey}`, String(length), repeat]));
      return index >= 0 ? index : undefined;
    },
    async end(testId) {
      const held = await call(() => `end test ${quote(testId)}`, END_SCRIPT, testId, [], [prefix + testId, journalKey(testId), recordedKey(testId)]);
      await mockTotals.release(testId, Number(held));
    },
    async listSessions(cursor, limit, search) {
      return listSessions(context, cursor, limit, search);
    },
  };
}
