import { quote } from '../core/dev-utils.js';
import { HarnessError } from '../core/errors.js';
import { redactUrl } from '../core/redact-url.js';
import type { SessionStore } from '../core/store/session-store.js';
import { createRedisStore } from '../redis/redis-store.js';

/** A Redis-backed store the server opened, and how to let go of it. */
export interface OpenedRedisStore {
  store: SessionStore;
  /** `redis` or `ioredis`: the client package that was found. */
  client: string;
  /** A round trip to Redis; rejects when it is unreachable (for the health check). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenRedisStoreOptions {
  url: string;
  /** Where the URL came from, named in errors. @default '--redis' */
  setting?: string;
  /** @default the Redis store's own default, shared with embedded harnesses */
  prefix?: string;
  /** Where connection trouble is reported. */
  onError(message: string): void;
}

/** How long the first connection may take before start-up fails. */
const CONNECT_TIMEOUT_MS = 5000;

/** How long the health check waits for Redis. */
const PING_TIMEOUT_MS = 2000;

/** `promise`, or a rejection with `message` once `ms` passed. */
function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** Marks the start-up failure this module wrote, so it is thrown as it is rather than wrapped again. */
const UNREACHABLE = Symbol('unreachable');

/** Every message shows the URL through `redactUrl`: start-up lines and logs end up in CI output. */
function unreachable(url: string, reason: string, setting = '--redis'): Error {
  const error = new Error(`Failed to connect to Redis at ${redactUrl(url)}: ${reason}. Check that Redis runs there and that the URL (${setting} redis://host:port) is right.`);
  return Object.assign(error, { [UNREACHABLE]: true });
}

type MaybeOurs = Error & { [UNREACHABLE]?: true; originalError?: MaybeOurs };

/**
 * The start-up failure for `error`: one this module made passes through whole (node-redis 5
 * wraps what reconnectStrategy returned in a ReconnectStrategyError, as `originalError`).
 */
function reasonOf(error: unknown, url: string, setting: string | undefined): Error {
  const failure = error as MaybeOurs;
  if (failure[UNREACHABLE]) return failure;
  if (failure.originalError?.[UNREACHABLE]) return failure.originalError;
  return unreachable(url, failure.message, setting);
}

/** Connect with node-redis (`redis`). The first connection fails fast; later drops are retried. */
async function openNodeRedis(module: typeof import('redis'), { url, onError, setting }: OpenRedisStoreOptions) {
  let connected = false;
  const client = module.createClient({
    url,
    // While Redis is away, calls fail at once (the control API answers 503) rather than queue up.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      // Before the first connection: give up, so start-up fails with a message. After: keep trying.
      reconnectStrategy: (retries: number, cause: Error) => (connected ? Math.min(retries * 200, 2000) : unreachable(url, cause.message, setting)),
    },
  });
  let lastError = '';
  client.on('error', (error: Error) => {
    // Reported once per distinct problem: a reconnect loop repeats the same one.
    if (connected && error.message !== lastError) onError(`Redis at ${redactUrl(url)}: ${error.message}. Retrying; calls fail until it is back.`);
    lastError = error.message;
  });
  client.on('ready', () => (lastError = ''));
  try {
    await client.connect();
  } catch (error) {
    throw reasonOf(error, url, setting);
  }
  connected = true;
  // node-redis 5 closes with close(); version 4 only has quit().
  const closable = client as unknown as { close?: () => Promise<unknown>; quit: () => Promise<unknown> };
  return { client, ping: async () => void (await client.ping()), close: async () => void (await (closable.close ? closable.close() : closable.quit())) };
}

/** Connect with ioredis, when that is the client installed. */
async function openIORedis(module: { Redis: typeof import('ioredis').Redis }, { url, onError, setting }: OpenRedisStoreOptions) {
  const client = new module.Redis(url, { lazyConnect: true, connectTimeout: CONNECT_TIMEOUT_MS, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  let lastError = '';
  client.on('error', (error: Error) => {
    if (error.message !== lastError) onError(`Redis at ${redactUrl(url)}: ${error.message}. Retrying; calls fail until it is back.`);
    lastError = error.message;
  });
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw reasonOf(error, url, setting);
  }
  return { client, ping: async () => void (await client.ping()), close: async () => void (await client.quit()) };
}

/**
 * A Redis session store for `serve --redis <url>`, on whichever client the project has
 * installed (`redis`, else `ioredis`), loaded only when the flag is given. Sessions are shared
 * with every embedded harness that uses the same Redis and prefix.
 */
export async function openRedisStore(options: OpenRedisStoreOptions): Promise<OpenedRedisStore> {
  const setting = options.setting ?? '--redis';
  let parsed: URL;
  try {
    parsed = new URL(options.url);
  } catch {
    throw new HarnessError('INVALID_OPTIONS', `Expected ${setting} to be a Redis URL such as redis://127.0.0.1:6379, instead got ${quote(redactUrl(options.url))}.`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new HarnessError('INVALID_OPTIONS', `Expected ${setting} to be a redis:// or rediss:// URL, instead got ${quote(redactUrl(options.url))}.`);
  }
  const nodeRedis = await import('redis').catch(() => undefined);
  const ioredis = nodeRedis === undefined ? await import('ioredis').catch(() => undefined) : undefined;
  if (nodeRedis === undefined && ioredis === undefined) {
    throw new Error(`${setting} needs a Redis client, and neither "redis" nor "ioredis" is installed. Install one where scenario-harness is installed: npm install redis`);
  }
  const opened = nodeRedis !== undefined ? await openNodeRedis(nodeRedis, options) : await openIORedis(ioredis!, options);
  const store = createRedisStore({ client: opened.client, ...(options.prefix === undefined ? {} : { prefix: options.prefix }) });
  return { store, client: nodeRedis !== undefined ? 'redis' : 'ioredis', ping: () => withTimeout(opened.ping(), PING_TIMEOUT_MS, `Redis at ${redactUrl(options.url)} did not answer a PING within ${PING_TIMEOUT_MS} ms`), close: opened.close };
}
