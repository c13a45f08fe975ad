import { jsonAnswer, type ControlAnswer } from '../core/control/control-call.js';
import type { SessionStore } from '../core/store/session-store.js';

export const DEFAULT_SESSIONS_LIMIT = 50;
export const MAX_SESSIONS_LIMIT = 500;
/** A search longer than a test ID can be finds nothing; refusing it keeps SCAN patterns small. */
const MAX_SEARCH_LENGTH = 256;

/**
 * `GET /__harness__/sessions?search=&limit=&cursor=`: one page of the live test IDs, newest
 * first where the store knows the order, `{ sessions: [{ testId, active?, calls, lastCallAt? }], cursor?, total? }`.
 */
export async function listSessionsAnswer(store: Pick<SessionStore, 'listSessions'>, search: string, path: string): Promise<ControlAnswer> {
  if (store.listSessions === undefined) {
    return jsonAnswer({ error: 'This harness\'s session store cannot list test IDs (its SessionStore has no listSessions()). The memory store and the Redis store can; the inspector needs it to show live test IDs.' }, 404);
  }
  const params = new URLSearchParams(search);
  const limitText = params.get('limit');
  const limit = limitText === null || limitText === '' ? DEFAULT_SESSIONS_LIMIT : Number(limitText);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SESSIONS_LIMIT) {
    return jsonAnswer({ error: `Invalid limit ${JSON.stringify(limitText)} on ${path}: use a whole number from 1 to ${MAX_SESSIONS_LIMIT} (default ${DEFAULT_SESSIONS_LIMIT}).` }, 400);
  }
  const text = params.get('search') ?? '';
  if (text.length > MAX_SEARCH_LENGTH) {
    return jsonAnswer({ error: `Invalid search on ${path}: ${text.length} characters, the limit is ${MAX_SEARCH_LENGTH}. Search for a part of a test ID.` }, 400);
  }
  const cursor = params.get('cursor');
  if (cursor !== null && !/^[0-9]{1,20}$/.test(cursor)) {
    return jsonAnswer({ error: `Invalid cursor ${JSON.stringify(cursor)} on ${path}: pass back the "cursor" of the previous page as it is, or none for the first page.` }, 400);
  }
  return jsonAnswer(await store.listSessions(cursor ?? undefined, limit, text === '' ? undefined : text));
}
