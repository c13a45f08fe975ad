import { randomBytes } from 'node:crypto';
import { quote } from '../core/dev-utils.js';
import { HarnessError } from '../core/errors.js';
import type { JournalEntry } from '../core/journal/journal-entry.js';
import type { RecordedExchange, RecordMode } from '../core/recording/recorded-exchange.js';
import {
  TEST_MOCK_KEY_PREFIX,
  type AddMocksResult,
  type SequenceRepeat,
  type SessionPage,
  type SessionSnapshot,
  type SessionStore,
  type SessionSummary,
  type StateChange,
  type StateLimits,
  type StateRefusal,
  type TestMockLimits,
  type TestState,
} from '../core/store/session-store.js';
import { toPlainMocks } from '../core/test-mocks/to-plain-mocks.js';
import type { ActiveScenario, Mock } from '../core/types.js';
import {
  ACTIVATE_SCRIPT,
  ADD_MOCKS_SCRIPT,
  ADVANCE_SCRIPT,
  APPEND_CALL_SCRIPT,
  CLEAR_CALLS_SCRIPT,
  END_SCRIPT,
  LIST_SESSIONS_SCRIPT,
  READ_CALLS_SCRIPT,
  READ_MOCKS_SCRIPT,
  READ_RECORDED_SCRIPT,
  READ_SCRIPT,
  RESET_MOCKS_SCRIPT,
  SET_RECORDING_SCRIPT,
  UPDATE_STATE_SCRIPT,
  type LuaScript,
} from './_lua-scripts.js';
import { createMockTotals } from './_mock-totals.js';
import { toScriptRunner, type RedisLike } from './_script-runner.js';

export interface RedisStoreOptions {
  /**
   * Your Redis client, already connected: node-redis v4 or later (`createClient()` from
   * `redis`) or ioredis (`new Redis()`). Clusters of either work too: every step touches one key.
   * The store never connects, quits or configures it.
   */
  client: RedisLike;
  /**
   * Put before every key; a session lives in the hash `<prefix><testId>`.
   * @default 'scenario-harness:'
   */
  prefix?: string;
  /**
   * A session that nobody read or wrote for this long is dropped by Redis. Every store call renews it.
   * @default 3600
   */
  ttlSeconds?: number;
  /**
   * How long one store call may take. Past it the call fails with a `HarnessError` whose code is
   * `'STORE_UNAVAILABLE'` (the control endpoints answer 503), so a Redis outage never hangs the app.
   * @default 2000
   */
  timeoutMs?: number;
}

const DEFAULT_PREFIX = 'scenario-harness:';
/** A test's journal list is `<prefix><testId>` + this, beside its session hash. */
const JOURNAL_SUFFIX = '\u0000journal';
/** Keys a SCAN step looks at during a search (a page without one looks at about `limit`). */
const SEARCH_SCAN_COUNT = 1000;

/** Classes of Redis error replies (node-redis `ErrorReply`, ioredis `ReplyError`): Redis answered, with an error. */
const REPLY_ERROR_CLASSES = new Set(['ErrorReply', 'ReplyError']);

function isErrorReply(error: Error): boolean {
  for (let proto: unknown = Object.getPrototypeOf(error); proto !== null && proto !== Error.prototype; proto = Object.getPrototypeOf(proto)) {
    if (REPLY_ERROR_CLASSES.has((proto as { constructor?: { name?: string } }).constructor?.name ?? '')) return true;
  }
  return false;
}

function assertPositive(name: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`Expected "${name}" to be a positive number, instead got ${JSON.stringify(value) ?? typeof value}.`);
  }
}

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

/** Why a test's own mock with a response function cannot be kept in Redis. */
const refuseFunction = (field: string) =>
  `Failed to keep the test's mocks in Redis: ${field} is a function, and Redis holds data that every replica reads. Give the response as data (templates and sequences cover most per-call answers), or put the function in a scenario, which every replica defines in code.`;

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

/**
 * A `SessionStore` on Redis, for an app under test that runs as several processes or
 * replicas: they all see one switch, one state and one sequence order. Every step is one
 * Lua script on one key, so it is atomic across processes and costs one round trip; an
 * intercepted call reads its session in one round trip.
 *
 * @example
 * import { createClient } from 'redis';
 * import { createRedisStore } from 'scenario-harness/redis';
 * const client = await createClient({ url: process.env.REDIS_URL }).on('error', console.error).connect();
 * const harness = createHarness({ enabled: true, scenarios, store: createRedisStore({ client }) });
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/redis.md
 */
export function createRedisStore(options: RedisStoreOptions): SessionStore {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected createRedisStore() to get an options object with a "client", instead got ${JSON.stringify(options) ?? typeof options}.`);
  }
  const { client, prefix = DEFAULT_PREFIX, ttlSeconds = 3600, timeoutMs = 2000 } = options;
  const run = toScriptRunner(client);
  if (typeof prefix !== 'string') throw new TypeError(`Expected "prefix" to be a string, instead got ${typeof prefix}.`);
  assertPositive('ttlSeconds', ttlSeconds);
  assertPositive('timeoutMs', timeoutMs);
  const ttl = String(Math.max(1, Math.round(ttlSeconds * 1000)));

  function storeError(describe: () => string, error: unknown): HarnessError {
    const what = describe();
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof Error && isErrorReply(error)) {
      const hint = reason.startsWith('WRONGTYPE')
        ? `Something else stores keys under the prefix ${quote(prefix)}: give createRedisStore() a prefix of its own.`
        : 'Check the Redis server (its log, its memory, whether it is a read-only replica).';
      return new HarnessError('STORE_UNAVAILABLE', `Failed to ${what} in Redis: Redis answered with an error (${reason}). ${hint}`, { cause: error });
    }
    return new HarnessError(
      'STORE_UNAVAILABLE',
      `Failed to ${what} in Redis: Redis is unreachable (${reason}). Check that Redis is running and reachable from this process, and that the client given to createRedisStore() is connected.`,
      { cause: error },
    );
  }

  /**
   * One script, bounded by `timeoutMs`; every failure becomes a `STORE_UNAVAILABLE` HarnessError.
   * `what` names the step for the message, built only when it fails.
   */
  /**
   * The journal of a test ID: a list beside its session hash.
   * @note A NUL byte cannot appear in a test ID taken from an HTTP header, so no test ID's
   * session key can be another test's journal key.
   */
  const journalKey = (testId: string) => `${prefix}${testId}${JOURNAL_SUFFIX}`;
  /** The exchanges a recording test captured: a list beside the session, like the journal. */
  const recordedKey = (testId: string) => `${prefix}${testId}\u0000recorded`;
  const mockTotals = createMockTotals((what, script, args, keys) => call(what, script, '', args, keys), `${prefix}\u0000mocks`, (testId) => prefix + testId);

  function call(what: () => string, script: LuaScript, testId: string, args: string[], keys: readonly string[] = [prefix + testId]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(storeError(what, new Error(`no answer within ${timeoutMs} ms`))), timeoutMs);
      timer.unref();
      const settle = (error: unknown, value?: unknown) => {
        clearTimeout(timer);
        if (error === undefined) resolve(value);
        else reject(storeError(what, error));
      };
      try {
        run(script, keys, [ttl, ...args]).then((value) => settle(undefined, value), (error: unknown) => settle(error ?? new Error('unknown error')));
      } catch (error) {
        settle(error ?? new Error('unknown error'));
      }
    });
  }

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
    async updateState(testId, changes: readonly StateChange[], generation?: string | null, limits?: StateLimits): Promise<StateRefusal | void> {
      if (changes.length === 0) return;
      const args = [generation ?? '*', limits === undefined ? '' : String(limits.maxBytes), ...toUpdateArgs(changes)];
      const reply = await call(() => `update the state of test ${quote(testId)}`, UPDATE_STATE_SCRIPT, testId, args);
      if (Array.isArray(reply)) return { refused: true, bytes: Number(reply[0]), adding: Number(reply[1]) };
    },
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
    async end(testId) {
      const held = await call(() => `end test ${quote(testId)}`, END_SCRIPT, testId, [], [prefix + testId, journalKey(testId), recordedKey(testId)]);
      await mockTotals.release(testId, Number(held));
    },
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
    /**
     * SCAN over `<prefix>*<search>*`, in a script so that a page costs one round trip.
     * @note On a Redis Cluster a script without keys runs on one node: the inspector then lists
     * the test IDs of that node only.
     */
    async listSessions(cursor, limit, search = '') {
      const pattern = `${escapeGlob(prefix)}*${caseFoldGlob(search)}*`;
      // A search lets Redis skip most keys itself (MATCH), so each SCAN step may look at many more.
      const count = search === '' ? limit : Math.max(limit, SEARCH_SCAN_COUNT);
      const args = [cursor ?? '0', String(limit), pattern, prefix, JOURNAL_SUFFIX, asciiLower(search), String(count)];
      return toSessionPage(await call(() => 'list the test IDs', LIST_SESSIONS_SCRIPT, '', args, []));
    },
  };
}
