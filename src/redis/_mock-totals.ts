import { quote } from '../core/dev-utils.js';
import { lua, type LuaScript } from './_lua-scripts.js';

/*
 * The store-wide total of the tests' own mocks (`limits.maxTotalTestMockBytes`) is one hash
 * beside the sessions, `<prefix>` + NUL + `mocks` (a NUL never appears in a test ID, so no session
 * has that key): `total`, and `t:<testId>` for each test whose mocks it counts. Every step still
 * touches one key, as on Redis Cluster it must, so an add takes four: it marks its bytes in the
 * session as being added (`mp`), reserves them here, adds the mocks to the session (which clears
 * the mark), and on a refusal releases them and clears the mark. An end or a reset releases what
 * the session held. A session that expires releases nothing, so when an add would pass the
 * total, the store first recounts: it asks each counted test's session what its mocks hold and
 * what is being added (`mb` + `mp`), and lowers the count of a test that holds less — only if no
 * reservation for it came in meanwhile. Marking before reserving is what keeps a recount from
 * taking the bytes of an add in flight for the leftovers of an expired session.
 * The hash expires like a session, when no add or release touched it.
 */

/** ARGV[2] test ID, ARGV[3] bytes, ARGV[4] the most all tests' mocks may hold → {1, total} once reserved, {0, total} past it. */
const RESERVE_SCRIPT = lua(
  'reserveMockBytes',
  `local total = tonumber(redis.call('HGET', KEYS[1], 'total') or '0')
local bytes = tonumber(ARGV[3])
if total + bytes > tonumber(ARGV[4]) then return {0, total} end
redis.call('HINCRBY', KEYS[1], 't:' .. ARGV[2], bytes)
redis.call('HSET', KEYS[1], 'total', tostring(total + bytes))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return {1, total + bytes}`,
);

/** ARGV[2] test ID, ARGV[3] bytes: no more than the test is counted for → the bytes released. */
const RELEASE_SCRIPT = lua(
  'releaseMockBytes',
  `local field = 't:' .. ARGV[2]
local counted = tonumber(redis.call('HGET', KEYS[1], field) or '0')
local freed = math.min(counted, tonumber(ARGV[3]))
if freed <= 0 then return 0 end
if counted - freed <= 0 then redis.call('HDEL', KEYS[1], field) else redis.call('HINCRBY', KEYS[1], field, -freed) end
local total = redis.call('HINCRBY', KEYS[1], 'total', -freed)
if total < 0 then redis.call('HSET', KEYS[1], 'total', '0') end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return freed`,
);

/** → [test ID, bytes counted, ...]: every test the total counts (a recount is not a use: no expiry renewed). */
const COUNTED_SCRIPT = lua(
  'countedMockBytes',
  `local out = {}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if string.sub(all[i], 1, 2) == 't:' then
    out[#out + 1] = string.sub(all[i], 3)
    out[#out + 1] = all[i + 1]
  end
end
return out`,
);

/** On a session: → {how many own mocks, their bytes, the bytes being added}, 0 for none (read without renewing its expiry). */
const HELD_MOCKS_SCRIPT = lua(
  'heldMocks',
  `local held = redis.call('HMGET', KEYS[1], 'mn', 'mb', 'mp')
return {tonumber(held[1] or '0'), tonumber(held[2] or '0'), tonumber(held[3] or '0')}`,
);

/** On a session: ARGV[2] bytes to mark as being added (negative: to unmark) → {how many own mocks, their bytes}. */
const MARK_SCRIPT = lua(
  'markMockBytes',
  `local left = redis.call('HINCRBY', KEYS[1], 'mp', ARGV[2])
if left <= 0 then redis.call('HDEL', KEYS[1], 'mp') end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
local held = redis.call('HMGET', KEYS[1], 'mn', 'mb')
return {tonumber(held[1] or '0'), tonumber(held[2] or '0')}`,
);

/**
 * ARGV[2..] triples (test ID, bytes the recount read, bytes its session holds): a test still
 * counted for what the recount read (no add since) and holding less is counted for what it holds.
 */
const SETTLE_SCRIPT = lua(
  'settleMockBytes',
  `local freed = 0
for i = 2, #ARGV, 3 do
  local field = 't:' .. ARGV[i]
  local read, held = tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
  if tonumber(redis.call('HGET', KEYS[1], field) or '-1') == read and held < read then
    if held <= 0 then redis.call('HDEL', KEYS[1], field) else redis.call('HSET', KEYS[1], field, tostring(held)) end
    freed = freed + read - held
  end
end
local total = tonumber(redis.call('HGET', KEYS[1], 'total') or '0') - freed
if total < 0 then total = 0 end
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'total', tostring(total)) end
return freed`,
);

/** Runs one script: on `keys`, named by `what` in its error. ARGV[1] (the expiry) is added by the runner. */
export type RunScript = (what: () => string, script: LuaScript, args: string[], keys: readonly string[]) => Promise<unknown>;

/** Sessions asked at once during a recount. */
const RECOUNT_BATCH = 100;

export interface MockTotals {
  /** Mark `bytes` in the test's session as being added (negative: unmark them) → what its own mocks hold: `[count, bytes]`. */
  mark(testId: string, bytes: number): Promise<[number, number]>;
  /** Count `bytes` more for the test unless the total would pass `maxTotalBytes` (recounting first, then); `undefined` once reserved, else the total held. */
  reserve(testId: string, bytes: number, maxTotalBytes: number): Promise<number | undefined>;
  /** Count up to `bytes` less for the test (what its session no longer holds). */
  release(testId: string, bytes: number): Promise<void>;
}

/**
 * The total of the tests' own mocks in one Redis store: `totalsKey` is its hash, `sessionKey` a
 * test's session hash.
 * @note Only a test that adds mocks and ends at the same moment, while another process recounts,
 * can be counted for less than it holds (until it ends): the total errs low then, never high.
 */
export function createMockTotals(run: RunScript, totalsKey: string, sessionKey: (testId: string) => string): MockTotals {
  const keys = [totalsKey];

  async function tryReserve(testId: string, bytes: number, maxTotalBytes: number): Promise<[boolean, number]> {
    const [reserved, total] = (await run(() => `count the mocks of test ${quote(testId)} toward the total`, RESERVE_SCRIPT, [testId, String(bytes), String(maxTotalBytes)], keys)) as [number, number];
    return [Number(reserved) === 1, Number(total)];
  }

  /** Count each test for what its session still holds: sessions that expired release their bytes. */
  async function recount(): Promise<void> {
    const flat = (await run(() => 'read the total of the tests\' mocks', COUNTED_SCRIPT, [], keys)) as unknown[];
    const triples: string[] = [];
    for (let start = 0; start < flat.length; start += RECOUNT_BATCH * 2) {
      const batch: [string, string][] = [];
      for (let i = start; i + 1 < flat.length && i < start + RECOUNT_BATCH * 2; i += 2) batch.push([String(flat[i]), String(flat[i + 1])]);
      const held = await Promise.all(batch.map(([testId]) => run(() => `read the mocks of test ${quote(testId)}`, HELD_MOCKS_SCRIPT, [], [sessionKey(testId)]) as Promise<[number, number, number]>));
      for (const [index, [testId, counted]] of batch.entries()) {
        const bytes = Number(held[index]![1]) + Number(held[index]![2]);
        if (bytes < Number(counted)) triples.push(testId, counted, String(bytes));
      }
    }
    if (triples.length > 0) await run(() => 'recount the total of the tests\' mocks', SETTLE_SCRIPT, triples, keys);
  }

  return {
    async mark(testId, bytes) {
      const [count, held] = (await run(() => `add mocks for test ${quote(testId)}`, MARK_SCRIPT, [String(bytes)], [sessionKey(testId)])) as [number, number];
      return [Number(count), Number(held)];
    },
    async reserve(testId, bytes, maxTotalBytes) {
      const [reserved] = await tryReserve(testId, bytes, maxTotalBytes);
      if (reserved) return undefined;
      await recount();
      const [again, after] = await tryReserve(testId, bytes, maxTotalBytes);
      return again ? undefined : after;
    },
    async release(testId, bytes) {
      if (bytes > 0) await run(() => `release the mocks of test ${quote(testId)} from the total`, RELEASE_SCRIPT, [testId, String(bytes)], keys);
    },
  };
}
