import { randomBytes } from 'node:crypto';
import { quote } from '../core/dev-utils.js';
import { TEST_MOCK_KEY_PREFIX, type AddMocksResult, type SessionStore, type TestMockLimits } from '../core/store/session-store.js';
import { toPlainMocks } from '../core/test-mocks/to-plain-mocks.js';
import type { Mock } from '../core/types.js';
import { lua } from './_lua-scripts.js';
import type { RedisContext } from './_redis-context.js';

/**
 * ARGV[2] a new version token, ARGV[3] the batch as a JSON array, ARGV[4] how many mocks it
 * holds, ARGV[5] its bytes, ARGV[6] the most mocks, ARGV[7] the most bytes, ARGV[8] '1' when
 * its bytes were marked as being added (`mp`, cleared once added) → {1, count, version} once
 * added, or {0, count, bytes} when the test would pass a bound (nothing changes). The batch is
 * appended by editing the JSON text, as state appends are.
 */
const ADD_MOCKS_SCRIPT = lua(
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
const READ_MOCKS_SCRIPT = lua(
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
const RESET_MOCKS_SCRIPT = lua(
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

/** Why a test's own mock with a response function cannot be kept in Redis. */
const refuseFunction = (field: string) =>
  `Failed to keep the test's mocks in Redis: ${field} is a function, and Redis holds data that every replica reads. Give the response as data (templates and sequences cover most per-call answers), or put the function in a scenario, which every replica defines in code.`;

export type OwnMockMethods = Required<Pick<SessionStore, 'addMocks' | 'readMocks' | 'resetMocks'>>;

/** The mocks a test adds for itself, bounded per test and, together, store-wide (_mock-totals.ts). */
export function ownMockMethods({ call, mockTotals }: RedisContext): OwnMockMethods {
  return {
    async addMocks(testId, list: readonly Mock[], bytes: number, { maxMocks, maxBytes, maxTotalBytes }: TestMockLimits): Promise<AddMocksResult> {
      const json = JSON.stringify(toPlainMocks(list, refuseFunction));
      const version = randomBytes(9).toString('base64url');
      const add = async (counted: boolean) => {
        const args = [version, json, String(list.length), String(bytes), String(maxMocks), String(maxBytes), counted ? '1' : '0'];
        const [added, count, third] = (await call(() => `add mocks for test ${quote(testId)}`, ADD_MOCKS_SCRIPT, testId, args)) as [number, number, unknown];
        return Number(added) === 1 ? ({ added: true, count: Number(count), version: String(third) } as const) : ({ added: false, count: Number(count), bytes: Number(third) } as const);
      };
      if (list.length === 0 || maxTotalBytes === undefined) return add(false);
      // The store-wide total is a key of its own: marked in the session, reserved, then added (see _mock-totals.ts).
      const [count, held] = await mockTotals.mark(testId, bytes);
      let reserved = false;
      let added = false;
      try {
        // The test's own bounds are named first, as the memory store does: they are the ones it can do something about alone.
        if (count + list.length > maxMocks || held + bytes > maxBytes) return { added: false, count, bytes: held };
        const totalBytes = await mockTotals.reserve(testId, bytes, maxTotalBytes);
        if (totalBytes !== undefined) return { added: false, count, bytes: held, totalBytes };
        reserved = true;
        const result = await add(true);
        added = result.added;
        return result;
      } finally {
        // Refused or failed (once added, the add cleared the mark itself): the reservation goes first,
        // then the mark, so that no recount finds bytes counted that are neither held nor marked.
        if (!added) {
          if (reserved) await mockTotals.release(testId, bytes);
          await mockTotals.mark(testId, -bytes);
        }
      }
    },
    async readMocks(testId) {
      const held = (await call(() => `read the mocks of test ${quote(testId)}`, READ_MOCKS_SCRIPT, testId, [])) as [unknown, unknown] | null;
      if (!Array.isArray(held)) return undefined;
      return { version: String(held[0]), mocks: JSON.parse(String(held[1])) as Mock[] };
    },
    async resetMocks(testId) {
      const held = await call(() => `remove the mocks of test ${quote(testId)}`, RESET_MOCKS_SCRIPT, testId, [`p:${TEST_MOCK_KEY_PREFIX}`]);
      await mockTotals.release(testId, Number(held));
    },
  };
}
