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

/** The client with a count of the scripts it was asked to run (one per round trip). */
export function countRoundTrips<T extends object>(client: T): { client: T; count(): number } {
  let calls = 0;
  const proxy = new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === 'eval' || property === 'evalSha' || property === 'evalsha') {
        return (...args: unknown[]) => {
          calls++;
          return method.apply(target, args);
        };
      }
      return method.bind(target);
    },
  });
  return { client: proxy, count: () => calls };
}
