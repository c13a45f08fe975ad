import type { SessionPage, SessionSummary } from '../core/store/session-store.js';
import { lua } from './_lua-scripts.js';
import { JOURNAL_SUFFIX, type RedisContext } from './_redis-context.js';

/** Keys a SCAN step looks at during a search (a page without one looks at about `limit`). */
const SEARCH_SCAN_COUNT = 1000;

/**
 * No keys (it walks the key space): ARGV[2] SCAN cursor, ARGV[3] test IDs wanted, ARGV[4] MATCH
 * pattern, ARGV[5] the prefix, ARGV[6] the journal key suffix, ARGV[7] the search text,
 * lower-case ('' for none), ARGV[8] the SCAN COUNT → { next cursor, { testId, scenario,
 * variant, journal length, newest call's time, ... } }. A journal key is listed only for a
 * test ID without a session hash (one that never switched), so no test ID is listed twice;
 * other lists beside a session and keys of other types under the prefix are skipped. Listing
 * renews no expiry.
 */
const LIST_SESSIONS_SCRIPT = lua(
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

/** A SCAN MATCH pattern for `text` as it is: glob characters escaped. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/**
 * The same, matching ASCII letters in either case (`ab` → `[aA][bB]`): searches ignore case.
 * @note ASCII only, as Lua's string.lower, which checks each match, folds ASCII only.
 */
function caseFoldGlob(text: string): string {
  return [...text].map((char) => (/[a-z]/i.test(char) ? `[${char.toLowerCase()}${char.toUpperCase()}]` : escapeGlob(char))).join('');
}

const asciiLower = (text: string) => text.replace(/[A-Z]/g, (char) => char.toLowerCase());

/** The list script's flat reply → one page of sessions. */
function toSessionPage(reply: unknown): SessionPage {
  const [cursor, flat] = reply as [unknown, unknown[]];
  const sessions: SessionSummary[] = [];
  for (let i = 0; i + 4 < flat.length; i += 5) {
    const [testId, scenarioId, variant, calls, lastCallAt] = flat.slice(i, i + 5);
    const active = scenarioId == null ? undefined : variant == null ? { scenarioId: String(scenarioId) } : { scenarioId: String(scenarioId), variant: String(variant) };
    sessions.push({ testId: String(testId), ...(active === undefined ? {} : { active }), calls: Number(calls), ...(lastCallAt == null ? {} : { lastCallAt: String(lastCallAt) }) });
  }
  return String(cursor) === '0' ? { sessions } : { sessions, cursor: String(cursor) };
}

/**
 * The inspector's list of test IDs: SCAN over `<prefix>*<search>*`, in a script so that a page
 * costs one round trip.
 * @note On a Redis Cluster a script without keys runs on one node: the inspector then lists
 * the test IDs of that node only.
 */
export async function listSessions({ call, prefix }: RedisContext, cursor: string | undefined, limit: number, search = ''): Promise<SessionPage> {
  const pattern = `${escapeGlob(prefix)}*${caseFoldGlob(search)}*`;
  // A search lets Redis skip most keys itself (MATCH), so each SCAN step may look at many more.
  const count = search === '' ? limit : Math.max(limit, SEARCH_SCAN_COUNT);
  const args = [cursor ?? '0', String(limit), pattern, prefix, JOURNAL_SUFFIX, asciiLower(search), String(count)];
  return toSessionPage(await call(() => 'list the test IDs', LIST_SESSIONS_SCRIPT, '', args, []));
}
