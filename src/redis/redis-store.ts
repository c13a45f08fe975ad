import type { SessionStore } from '../core/store/session-store.js';
import { journalMethods } from './_journal.js';
import { ownMockMethods } from './_own-mocks.js';
import { recordingMethods } from './_recording.js';
import { createRedisContext } from './_redis-context.js';
import { toScriptRunner, type RedisLike } from './_script-runner.js';
import { sessionMethods } from './_sessions.js';
import { stateMethods } from './_state.js';
import { streamMethods } from './_streams.js';

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

function assertPositive(name: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`Expected "${name}" to be a positive number, instead got ${JSON.stringify(value) ?? typeof value}.`);
  }
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
  const context = createRedisContext(run, prefix, String(Math.max(1, Math.round(ttlSeconds * 1000))), timeoutMs);
  return {
    ...sessionMethods(context),
    ...stateMethods(context),
    ...ownMockMethods(context),
    ...recordingMethods(context),
    ...journalMethods(context),
    ...streamMethods(context),
  };
}
