import { HINT_HEADER } from '../constants.js';
import type { TestMocks } from './create-test-mocks.js';
import { unknownKeysMessage } from '../unknown-keys-message.js';
import { jsonAnswer, type ControlAnswer } from '../control/control-call.js';
import { hintHeaderValue } from '../control/hint-header.js';
import type { RouteRequest } from '../parts/harness-part.js';

/** The keys a `POST /__harness__/mocks` body may have. */
const BODY_KEYS = ['mocks', 'sockets'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `endpoints.mocks`: `POST { mocks }` adds mocks for the header's test only → `{ testId, mocks: n }`;
 * `GET` lists them, newest first → `{ testId, mocks: [...] }`; `DELETE` removes them → `{ testId, mocks: 0 }`.
 * The body is plain data (JSON); a response function or a RegExp object exists only in code, through `harness.useMocks`.
 */
export async function testMocksRoute({ call, testId, readBody }: RouteRequest, mocks: TestMocks): Promise<ControlAnswer> {
  if (!mocks.available) return jsonAnswer({ error: mocks.unavailable }, 501);
  if (call.method === 'DELETE') {
    await mocks.reset(testId);
    return jsonAnswer({ testId, mocks: 0 });
  }
  if (call.method !== 'POST') {
    const sockets = await mocks.listSockets(testId);
    return jsonAnswer(sockets.length === 0 ? { testId, mocks: await mocks.list(testId) } : { testId, mocks: await mocks.list(testId), sockets });
  }
  const body = await readBody();
  if (!body.ok) return body.answer;
  if (!isRecord(body.value) || (!Object.hasOwn(body.value, 'mocks') && !Object.hasOwn(body.value, 'sockets'))) {
    return jsonAnswer({ error: 'Invalid request body: expected { "mocks": [ ...mocks, as a scenario\'s "mocks" ], "sockets"?: [ ...socket mocks, as a scenario\'s "sockets" ] }', details: [{ path: ['mocks'], field: 'mocks', message: 'expected an array of mocks' }] }, 400);
  }
  const unknown = Object.keys(body.value).filter((key) => !BODY_KEYS.includes(key));
  if (unknown.length > 0) {
    return jsonAnswer({ error: `Invalid request body: ${unknownKeysMessage(unknown, BODY_KEYS)}`, details: unknown.map((key) => ({ path: [key], field: key, message: 'unknown key' })) }, 400);
  }
  const added = await mocks.add(testId, body.value.mocks, body.value.sockets);
  if (!added.ok) {
    const headers = added.hint === undefined ? undefined : { [HINT_HEADER]: hintHeaderValue(added.hint) };
    return jsonAnswer(added.details === undefined ? { error: added.error } : { error: added.error, details: added.details }, added.status, headers);
  }
  // `mocks` counts the HTTP mocks; `sockets`, when the test has any, its socket mocks (they share the bound).
  const sockets = Object.hasOwn(body.value, 'sockets') || added.count > 0 ? (await mocks.listSockets(testId)).length : 0;
  return jsonAnswer(sockets === 0 ? { testId, mocks: added.count } : { testId, mocks: added.count - sockets, sockets });
}
