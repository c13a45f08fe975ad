import type { LuaScript } from './_lua-scripts.js';

/** Options of node-redis's `EVAL` and `EVALSHA`. */
export interface NodeRedisEvalOptions {
  keys: string[];
  arguments: string[];
}

/** The two methods scenario-harness calls on a node-redis (v4 or later) client or cluster. */
export interface NodeRedisLike {
  eval(script: string, options: NodeRedisEvalOptions): Promise<unknown>;
  evalSha(sha1: string, options: NodeRedisEvalOptions): Promise<unknown>;
}

/** The two methods scenario-harness calls on an ioredis client or cluster. */
export interface IORedisLike {
  eval(script: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  evalsha(sha1: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
}

/** A Redis client: node-redis v4+ (`createClient()`) or ioredis (`new Redis()`). Only scripts are run. */
export type RedisLike = NodeRedisLike | IORedisLike;

/** Runs a Lua script on its keys: EVALSHA, and EVAL when Redis does not know the script yet. */
export type ScriptRunner = (script: LuaScript, key: string | readonly string[], args: string[]) => Promise<unknown>;

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/**
 * Adapt either client to one call shape. node-redis names the method `evalSha` and takes an
 * options object; ioredis names it `evalsha` and takes the key count and a flat list.
 * @note One round trip while Redis has the script cached; Redis forgets scripts on restart
 * (SCRIPT FLUSH, failover), and the NOSCRIPT reply makes us send the source once.
 */
export function toScriptRunner(client: unknown): ScriptRunner {
  const candidate = client as Partial<Record<'eval' | 'evalSha' | 'evalsha', unknown>> | null;
  if (typeof candidate === 'object' && candidate !== null && typeof candidate.eval === 'function') {
    if (typeof candidate.evalSha === 'function') {
      const nodeRedis = client as NodeRedisLike;
      return async (script, key, args) => {
        const options = { keys: typeof key === 'string' ? [key] : [...key], arguments: args };
        try {
          return await nodeRedis.evalSha(script.sha1, options);
        } catch (error) {
          if (!isNoScript(error)) throw error;
          return nodeRedis.eval(script.source, options);
        }
      };
    }
    if (typeof candidate.evalsha === 'function') {
      const ioredis = client as IORedisLike;
      return async (script, key, args) => {
        const keys = typeof key === 'string' ? [key] : key;
        try {
          return await ioredis.evalsha(script.sha1, keys.length, ...keys, ...args);
        } catch (error) {
          if (!isNoScript(error)) throw error;
          return ioredis.eval(script.source, keys.length, ...keys, ...args);
        }
      };
    }
  }
  const received = client === null ? 'null' : typeof client === 'object' ? `an object with keys ${JSON.stringify(Object.keys(client).slice(0, 8))}` : typeof client;
  throw new TypeError(
    `Expected "client" to be a node-redis client (createClient() from "redis") or an ioredis client (new Redis()), instead got ${received}. It needs an eval() and an evalSha() (node-redis) or evalsha() (ioredis) method.`,
  );
}
