import { Redis } from 'ioredis';
import { createClient } from 'redis';
import type { RedisLike } from 'scenario-harness/redis';

export type ClientKind = 'node-redis' | 'ioredis';
export const CLIENT_KINDS: readonly ClientKind[] = ['node-redis', 'ioredis'];

/** A connected client of either library, as a user would pass it to createRedisStore(). */
export interface ConnectedClient {
  client: RedisLike;
  /**
   * Resolves on the client's next `event`: `reconnecting` once it lost the server, `ready` once it is back.
   * @note Not `events.once()`: it rejects on the `error` events a client emits while the server is down.
   */
  next(event: 'reconnecting' | 'ready'): Promise<void>;
  close(): Promise<void>;
}

export type NodeRedisClient = ReturnType<typeof createClient>;

/** node-redis, connected; errors while the server is down only reconnect (no crash). */
export async function connectNodeRedis(url: string): Promise<NodeRedisClient> {
  const client = createClient({ url });
  client.on('error', () => {});
  await client.connect();
  return client;
}

export async function connectClient(kind: ClientKind, url: string): Promise<ConnectedClient> {
  if (kind === 'node-redis') {
    const client = await connectNodeRedis(url);
    return {
      client,
      next: (event) => new Promise((resolve) => void client.once(event, () => resolve())),
      close: async () => client.destroy(),
    };
  }
  const client = new Redis(url, { lazyConnect: true });
  client.on('error', () => {});
  await client.connect();
  return {
    client,
    next: (event) => new Promise((resolve) => void client.once(event, () => resolve())),
    close: async () => client.disconnect(),
  };
}

/** The first key a script call names: node-redis passes `{ keys }`, ioredis `(script, numKeys, ...keys)`. */
function firstKey(args: unknown[]): string {
  const options = args[1] as { keys?: string[] } | number;
  return typeof options === 'object' ? String(options.keys?.[0]) : String(args[2]);
}

/**
 * The client with a count of the session scripts it was asked to run (one per round trip) and,
 * apart, of its journal writes; `holdJournal()` keeps journal writes from starting until released.
 */
export function countRoundTrips<T extends object>(client: T): { client: T; count(): number; journalWrites(): number; holdJournal(): () => void } {
  let calls = 0;
  let journalWrites = 0;
  let held: Promise<void> | undefined;
  const proxy = new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === 'eval' || property === 'evalSha' || property === 'evalsha') {
        return (...args: unknown[]) => {
          if (!firstKey(args).endsWith('\u0000journal')) {
            calls++;
            return method.apply(target, args);
          }
          journalWrites++;
          return held === undefined ? method.apply(target, args) : held.then(() => method.apply(target, args));
        };
      }
      return method.bind(target);
    },
  });
  return {
    client: proxy,
    count: () => calls,
    journalWrites: () => journalWrites,
    holdJournal() {
      let release!: () => void;
      held = new Promise((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
  };
}
