import { quote } from '../core/dev-utils.js';
import type { SessionStore, StateChange, StateLimits, StateRefusal } from '../core/store/session-store.js';
import { lua } from './_lua-scripts.js';
import type { RedisContext } from './_redis-context.js';

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
const UPDATE_STATE_SCRIPT = lua(
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

/** `setState` changes → the update script's (op, field, JSON) triples. */
function toUpdateArgs(changes: readonly StateChange[]): string[] {
  const args: string[] = [];
  for (const { key, value, append } of changes) {
    // JSON has no `undefined`: a key set to it is removed (it reads back as absent); an appended one becomes null.
    const json = JSON.stringify(value) as string | undefined;
    if (append) args.push('a', `s:${key}`, json ?? 'null');
    else if (json === undefined) args.push('d', `s:${key}`, '');
    else args.push('s', `s:${key}`, json);
  }
  return args;
}

export type StateMethods = Pick<SessionStore, 'updateState'>;

/** A test's state: the session hash's `s:<key>` fields, bounded in size (`sb`, `limits.maxBytes`). */
export function stateMethods({ call }: RedisContext): StateMethods {
  return {
    async updateState(testId, changes: readonly StateChange[], generation?: string | null, limits?: StateLimits): Promise<StateRefusal | void> {
      if (changes.length === 0) return;
      const args = [generation ?? '*', limits === undefined ? '' : String(limits.maxBytes), ...toUpdateArgs(changes)];
      const reply = await call(() => `update the state of test ${quote(testId)}`, UPDATE_STATE_SCRIPT, testId, args);
      if (Array.isArray(reply)) return { refused: true, bytes: Number(reply[0]), adding: Number(reply[1]) };
    },
  };
}
