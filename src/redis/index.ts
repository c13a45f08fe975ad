/**
 * @module
 * A session store on Redis, for apps under test that run as several processes or replicas.
 */
export { createRedisStore } from './redis-store.js';
export type { RedisStoreOptions } from './redis-store.js';
export type { IORedisLike, NodeRedisEvalOptions, NodeRedisLike, RedisLike } from './_script-runner.js';

