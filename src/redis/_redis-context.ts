import { quote } from '../core/dev-utils.js';
import { HarnessError } from '../core/errors.js';
import type { LuaScript } from './_lua-scripts.js';
import { createMockTotals, type MockTotals } from './_mock-totals.js';
import type { ScriptRunner } from './_script-runner.js';

/** A test's journal list is `<prefix><testId>` + this, beside its session hash. */
export const JOURNAL_SUFFIX = '\u0000journal';

/** Classes of Redis error replies (node-redis `ErrorReply`, ioredis `ReplyError`): Redis answered, with an error. */
const REPLY_ERROR_CLASSES = new Set(['ErrorReply', 'ReplyError']);

function isErrorReply(error: Error): boolean {
  for (let proto: unknown = Object.getPrototypeOf(error); proto !== null && proto !== Error.prototype; proto = Object.getPrototypeOf(proto)) {
    if (REPLY_ERROR_CLASSES.has((proto as { constructor?: { name?: string } }).constructor?.name ?? '')) return true;
  }
  return false;
}

/** What every concern of one Redis store shares: its keys, and the one way it runs a script. */
export interface RedisContext {
  readonly prefix: string;
  /**
   * One script, bounded by `timeoutMs`; every failure becomes a `STORE_UNAVAILABLE` HarnessError.
   * `what` names the step for the message, built only when it fails. `keys` defaults to the
   * session hash of `testId`.
   */
  call(what: () => string, script: LuaScript, testId: string, args: string[], keys?: readonly string[]): Promise<unknown>;
  /**
   * The journal of a test ID: a list beside its session hash.
   * @note A NUL byte cannot appear in a test ID taken from an HTTP header, so no test ID's
   * session key can be another test's journal key.
   */
  journalKey(testId: string): string;
  /** The exchanges a recording test captured: a list beside the session, like the journal. */
  recordedKey(testId: string): string;
  /** The store-wide total of the tests' own mocks (see _mock-totals.ts): an add reserves, an end or a reset releases. */
  readonly mockTotals: MockTotals;
}

/** `ttl` is the sessions' expiry in milliseconds, as the scripts' ARGV[1]. */
export function createRedisContext(run: ScriptRunner, prefix: string, ttl: string, timeoutMs: number): RedisContext {
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
    prefix,
    call,
    journalKey: (testId) => `${prefix}${testId}${JOURNAL_SUFFIX}`,
    recordedKey: (testId) => `${prefix}${testId}\u0000recorded`,
    mockTotals: createMockTotals((what, script, args, keys) => call(what, script, '', args, keys), `${prefix}\u0000mocks`, (testId) => prefix + testId),
  };
}
