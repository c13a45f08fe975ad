import { createHash } from 'node:crypto';

/** A Lua script and its SHA1, for EVALSHA. */
export interface LuaScript {
  /** A short name for messages: `read`, `activate`, ... */
  name: string;
  source: string;
  sha1: string;
}

export function lua(name: string, source: string): LuaScript {
  return { name, source, sha1: createHash('sha1').update(source).digest('hex') };
}

/*
 * One Redis hash per test ID holds its whole session, so every step touches one key (atomic,
 * and Redis Cluster safe without hash tags). Fields:
 *   a        active scenario ID          v        active variant
 *   g        the session's generation: a new token at every switch
 *   r        the recording mode while the test records (kept across a switch)
 *   s:<key>  a state key, JSON value     p:<key>  a sequence position
 *   m        the version of the test's own mocks (a new token at every add; absent without them)
 *   ml       their JSON array, oldest first; mn how many, mb their bytes (kept across a switch)
 *   mp       bytes of own mocks being added, counted toward the store-wide total (_mock-totals.ts)
 *   sb       the state's size: each s:<key>'s key and JSON value, in bytes (limits.maxStateBytes)
 * Every script renews the key's expiry (ARGV[1], milliseconds): reads and writes count as use.
 * Each concern's scripts sit beside it: _sessions.ts, _state.ts, _own-mocks.ts (and
 * _mock-totals.ts), _journal.ts, _recording.ts, _list-sessions.ts.
 */
