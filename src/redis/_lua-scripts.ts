import { createHash } from 'node:crypto';

/** A Lua script and its SHA1, for EVALSHA. */
export interface LuaScript {
  /** A short name for messages: `read`, `activate`, ... */
  name: string;
  source: string;
  sha1: string;
}

export function lua(name: string, source: string): LuaScript {
  return { name, source, sha1: createHash('sha1').update(source).digest('hex') };
}

/*
 * One Redis hash per test ID holds its whole session, so every step touches one key (atomic,
 * and Redis Cluster safe without hash tags). Fields:
 *   a        active scenario ID          v        active variant
 *   g        the session's generation: a new token at every switch
 *   r        the recording mode while the test records (kept across a switch)
 *   s:<key>  a state key, JSON value     p:<key>  a sequence position
 *   m        the version of the test's own mocks (a new token at every add; absent without them)
 *   ml       their JSON array, oldest first; mn how many, mb their bytes (kept across a switch)
 *   mp       bytes of own mocks being added, counted toward the store-wide total (_mock-totals.ts)
 *   sb       the state's size: each s:<key>'s key and JSON value, in bytes (limits.maxStateBytes)
 * Every script renews the key's expiry (ARGV[1], milliseconds): reads and writes count as use.
 */

/**
 * → nil for an unknown test ID, else a flat [field, value, ...] list without the positions and
 * without the test's own mocks (only their version, `m`): every intercepted call reads this,
 * and compiles the mocks once per version (READ_MOCKS_SCRIPT).
 */
export const READ_SCRIPT = lua(
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
export const ACTIVATE_SCRIPT = lua(
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
 * ARGV[2] a new version token, ARGV[3] the batch as a JSON array, ARGV[4] how many mocks it
 * holds, ARGV[5] its bytes, ARGV[6] the most mocks, ARGV[7] the most bytes, ARGV[8] '1' when
 * its bytes were marked as being added (`mp`, cleared once added) → {1, count, version} once
 * added, or {0, count, bytes} when the test would pass a bound (nothing changes). The batch is
 * appended by editing the JSON text, as state appends are.
 */
export const ADD_MOCKS_SCRIPT = lua(
  'addMocks',
  `local count = tonumber(redis.call('HGET', KEYS[1], 'mn') or '0')
local bytes = tonumber(redis.call('HGET', KEYS[1], 'mb') or '0')
local n, b = tonumber(ARGV[4]), tonumber(ARGV[5])
if count + n > tonumber(ARGV[6]) or bytes + b > tonumber(ARGV[7]) then return {0, count, bytes} end
if n > 0 then
  local current = redis.call('HGET', KEYS[1], 'ml')
  local list = ARGV[3]
  if current then list = string.sub(current, 1, -2) .. ',' .. string.sub(ARGV[3], 2) end
  redis.call('HSET', KEYS[1], 'm', ARGV[2], 'ml', list, 'mn', tostring(count + n), 'mb', tostring(bytes + b))
end
if ARGV[8] == '1' then
  local left = tonumber(redis.call('HGET', KEYS[1], 'mp') or '0') - b
  if left > 0 then redis.call('HSET', KEYS[1], 'mp', tostring(left)) else redis.call('HDEL', KEYS[1], 'mp') end
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return {1, count + n, redis.call('HGET', KEYS[1], 'm') or ''}`,
);

/** → {version, JSON array} of the test's own mocks, or nil when it has none. */
export const READ_MOCKS_SCRIPT = lua(
  'readMocks',
  `local held = redis.call('HMGET', KEYS[1], 'm', 'ml')
if not held[1] then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return held`,
);

/**
 * ARGV[2] the prefix of their positions' fields: removes the test's own mocks and their
 * positions, the scenario's stay → the bytes the mocks held (for the store-wide total).
 */
export const RESET_MOCKS_SCRIPT = lua(
  'resetMocks',
  `local held = tonumber(redis.call('HGET', KEYS[1], 'mb') or '0')
local drop = {'m', 'ml', 'mn', 'mb'}
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, 1, #ARGV[2]) == ARGV[2] then drop[#drop + 1] = field end
end
redis.call('HDEL', KEYS[1], unpack(drop))
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return held`,
);

/**
 * ARGV[2] position field, ARGV[3] length, ARGV[4] repeat → the index to serve, or -1 once a
 * 'none' sequence is used up. Same rule as `sequenceIndex` in core; stored positions stay
 * below the length for 'last' and 'cycle' so they never grow.
 */
export const ADVANCE_SCRIPT = lua(
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
 * ARGV[2] the generation the caller read ('*': any) — a session switched since then is left
 * alone (returns 0); ARGV[3] the most bytes the state may hold ('': no bound); ARGV[4..] triples
 * (op, field, JSON): 's' sets, 'd' deletes, 'a' appends. Appending edits the JSON text (no cjson
 * round trip, which would turn [] into {} and round big numbers): a value that starts with '['
 * is an array, anything else becomes the first element. The changes are worked out first and
 * written only when they keep the state (`sb`: each key's name and JSON value) within ARGV[3],
 * or shrink it → 1; past it nothing is written → {the state's bytes, what the changes would add}.
 * A value already held is measured with HSTRLEN, without reading it, unless it is appended to.
 */
export const UPDATE_STATE_SCRIPT = lua(
  'updateState',
  `if ARGV[2] ~= '*' and (redis.call('HGET', KEYS[1], 'g') or '') ~= ARGV[2] then return 0 end
local pending, order, delta = {}, {}, 0
for i = 4, #ARGV, 3 do
  local op, field, value = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local name = #field - 2
  local current = pending[field]
  local before = 0
  if current == nil then
    if op == 'a' then
      current = redis.call('HGET', KEYS[1], field)
      if current then before = name + #current end
    else
      local length = redis.call('HSTRLEN', KEYS[1], field)
      if length > 0 then before = name + length end
    end
    order[#order + 1] = field
  elseif current then
    before = name + #current
  end
  local after = false
  if op == 's' then
    after = value
  elseif op == 'a' then
    if not current or current == '[]' then
      after = '[' .. value .. ']'
    elseif string.sub(current, 1, 1) == '[' then
      after = string.sub(current, 1, -2) .. ',' .. value .. ']'
    else
      after = '[' .. current .. ',' .. value .. ']'
    end
  end
  if after then delta = delta + name + #after - before else delta = delta - before end
  pending[field] = after
end
local bytes = tonumber(redis.call('HGET', KEYS[1], 'sb') or '0')
if ARGV[3] ~= '' and delta > 0 and bytes + delta > tonumber(ARGV[3]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return {bytes, delta}
end
for _, field in ipairs(order) do
  if pending[field] then redis.call('HSET', KEYS[1], field, pending[field]) else redis.call('HDEL', KEYS[1], field) end
end
redis.call('HSET', KEYS[1], 'sb', tostring(bytes + delta))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`,
);

/**
 * KEYS[1] the session, KEYS[2] its journal, KEYS[3] its recorded exchanges: ending a test forgets
 * them all → the bytes its own mocks held (for the store-wide total).
 */
export const END_SCRIPT = lua(
  'end',
  `local held = tonumber(redis.call('HGET', KEYS[1], 'mb') or '0')
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return held`,
);

/** ARGV[2] the mode, or '' to stop recording. */
export const SET_RECORDING_SCRIPT = lua(
  'setRecording',
  `if ARGV[2] == '' then redis.call('HDEL', KEYS[1], 'r') else redis.call('HSET', KEYS[1], 'r', ARGV[2]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`,
);

/** KEYS[1] the recorded list → its JSON entries, oldest first; ARGV[2] '1' empties it. */
export const READ_RECORDED_SCRIPT = lua(
  'readRecorded',
  `local entries = redis.call('LRANGE', KEYS[1], 0, -1)
if ARGV[2] == '1' then redis.call('DEL', KEYS[1]) elseif #entries > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return entries`,
);

/** KEYS[1] the journal list: ARGV[2] one JSON entry, ARGV[3] how many entries to keep. */
export const APPEND_CALL_SCRIPT = lua(
  'appendCall',
  `redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[3]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`,
);

/** KEYS[1] the journal list → its JSON entries, oldest first. */
export const READ_CALLS_SCRIPT = lua(
  'readCalls',
  `local entries = redis.call('LRANGE', KEYS[1], 0, -1)
if #entries > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return entries`,
);

export const CLEAR_CALLS_SCRIPT = lua('clearCalls', `return redis.call('DEL', KEYS[1])`);

/**
 * No keys (it walks the key space): ARGV[2] SCAN cursor, ARGV[3] test IDs wanted, ARGV[4] MATCH
 * pattern, ARGV[5] the prefix, ARGV[6] the journal key suffix, ARGV[7] the search text,
 * lower-case ('' for none), ARGV[8] the SCAN COUNT → { next cursor, { testId, scenario,
 * variant, journal length, newest call's time, ... } }. A journal key is listed only for a
 * test ID without a session hash (one that never switched), so no test ID is listed twice;
 * other lists beside a session and keys of other types under the prefix are skipped. Listing
 * renews no expiry.
 */
export const LIST_SESSIONS_SCRIPT = lua(
  'listSessions',
  `local cursor = ARGV[2]
local wanted = tonumber(ARGV[3])
local prefixLength = #ARGV[5]
local suffix = ARGV[6]
local out = {}
local found = 0
local rounds = 0
repeat
  local reply = redis.call('SCAN', cursor, 'MATCH', ARGV[4], 'COUNT', ARGV[8])
  cursor = reply[1]
  for _, key in ipairs(reply[2]) do
    local isJournal = #key > #suffix and string.sub(key, -#suffix) == suffix
    local session = key
    if isJournal then session = string.sub(key, 1, -#suffix - 1) end
    local testId = string.sub(session, prefixLength + 1)
    -- Other lists beside a session (recorded exchanges) have a NUL in their name too: not test IDs.
    local sideKey = string.find(testId, '\\0', 1, true) ~= nil
    local matches = ARGV[7] == '' or string.find(string.lower(testId), ARGV[7], 1, true) ~= nil
    if matches and not sideKey and (not isJournal or redis.call('EXISTS', session) == 0) then
      local fields = {false, false}
      if not isJournal then fields = redis.pcall('HMGET', session, 'a', 'v') end
      local count = redis.pcall('LLEN', session .. suffix)
      if fields.err == nil and type(count) == 'number' then
        local last = false
        if count > 0 then last = string.match(redis.call('LINDEX', session .. suffix, -1), '^{"at":"([^"]*)"') or false end
        out[#out + 1] = testId
        out[#out + 1] = fields[1]
        out[#out + 1] = fields[2]
        out[#out + 1] = count
        out[#out + 1] = last
        found = found + 1
      end
    end
  end
  rounds = rounds + 1
until cursor == '0' or found >= wanted or rounds >= 64
return {cursor, out}`,
);
