import { HINT_HEADER } from '../../core/constants.js';
import { jsonAnswer, type ControlAnswer } from '../../core/control/control-call.js';
import { hintHeaderValue } from '../../core/control/hint-header.js';
import { quote } from '../../core/dev-utils.js';
import type { RouteRequest } from '../../core/parts/harness-part.js';
import { unknownKeysMessage } from '../../core/unknown-keys-message.js';
import type { TestStreams } from './shared-streams.js';
import type { StreamAction, StreamState, StreamView } from './stream-registry.js';

const ACTIONS = ['release', 'step', 'abort'];
const BODY_KEYS = ['id', 'action', 'count'];
const STATES: readonly StreamState[] = ['streaming', 'held', 'complete', 'failed', 'aborted', 'cancelled'];
/** How long `GET ?id=…&state=…` waits at most when asked to, and by default. */
const MAX_WAIT_MS = 30_000;
const DEFAULT_WAIT_MS = 5_000;

function invalid(message: string, field: string): ControlAnswer {
  return jsonAnswer({ error: `Invalid request body: ${message}`, details: [{ path: [field], field, message }] }, 400);
}

/** The command of a `POST` body, or the `400` that says what is wrong with it. */
function commandOf(value: unknown): { id: string; command: StreamAction } | ControlAnswer {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalid("expected { id, action: 'release' | 'step' | 'abort', count? }", 'id');
  const body = value as Record<string, unknown>;
  const unknown = Object.keys(body).filter((key) => !BODY_KEYS.includes(key));
  if (unknown.length > 0) return invalid(unknownKeysMessage(unknown, BODY_KEYS), unknown[0]!);
  if (typeof body.id !== 'string' || body.id === '') return invalid(`"id" must be the stream's id (its mock's id), instead got ${JSON.stringify(body.id)}`, 'id');
  if (!ACTIONS.includes(body.action as string)) return invalid(`"action" must be 'release', 'step' or 'abort', instead got ${JSON.stringify(body.action)}`, 'action');
  if (body.action !== 'step') {
    if (body.count !== undefined) return invalid(`"count" goes with action 'step' only`, 'count');
    return { id: body.id, command: { action: body.action as 'release' | 'abort' } };
  }
  const count = body.count ?? 1;
  if (!Number.isSafeInteger(count) || (count as number) < 1) return invalid(`"count" must be a positive whole number of chunks, instead got ${JSON.stringify(body.count)}`, 'count');
  return { id: body.id, command: { action: 'step', count: count as number } };
}

/** What a wait asks of a stream: a state, and at least so many chunks delivered. */
function conditionOf(params: URLSearchParams): ((view: StreamView) => boolean) | string | undefined {
  const state = params.get('state');
  const delivered = params.get('delivered');
  if (state === null && delivered === null) return undefined;
  if (state !== null && !STATES.includes(state as StreamState)) return `"state" must be one of ${STATES.join(', ')}, instead got ${JSON.stringify(state)}`;
  const atLeast = delivered === null ? 0 : Number(delivered);
  if (!Number.isSafeInteger(atLeast) || atLeast < 0) return `"delivered" must be a whole number of chunks, instead got ${JSON.stringify(delivered)}`;
  return (view) => (state === null || view.state === state) && view.delivered >= atLeast;
}

async function noSuchStream(testId: string, id: string, streams: TestStreams): Promise<ControlAnswer> {
  const ids = [...new Set((await streams.list(testId)).map((view) => view.id))];
  const hint = ids.length === 0 ? `Test ${quote(testId)} has no streams yet: is the call made with its test ID, and does its mock stream?` : `Its streams: ${ids.map((one) => quote(one)).join(', ')}.`;
  return jsonAnswer({ error: `Test ${quote(testId)} has no stream ${quote(id)}.` }, 404, { [HINT_HEADER]: hintHeaderValue(hint) });
}

/**
 * `endpoints.streams`: `GET` lists the test's streams; `GET ?id=&state=&delivered=&waitMs=`
 * answers once that stream is there (or `408` after `waitMs`, at most 30 s); `POST { id, action,
 * count? }` releases, steps or aborts it.
 */
export async function streamsRoute({ call, testId, readBody }: RouteRequest, streams: TestStreams): Promise<ControlAnswer> {
  if (call.method === 'POST') {
    const body = await readBody();
    if (!body.ok) return body.answer;
    const parsed = commandOf(body.value);
    if ('status' in parsed) return parsed;
    const acted = await streams.act(testId, parsed.id, parsed.command);
    if (acted === undefined) return noSuchStream(testId, parsed.id, streams);
    if (acted === 'unanswered') return jsonAnswer({ error: `The process holding the stream ${quote(parsed.id)} of test ${quote(testId)} did not take the ${parsed.command.action} within 2 s: is it still running, and on the same store?` }, 504);
    if (acted.ended) return jsonAnswer({ error: `The stream ${quote(parsed.id)} of test ${quote(testId)} has ended (${acted.view.state}): there is nothing to ${parsed.command.action}.` }, 409);
    return jsonAnswer({ testId, stream: acted.view });
  }
  const params = new URLSearchParams(call.search);
  const id = params.get('id');
  if (id === null || id === '') return jsonAnswer({ testId, streams: await streams.list(testId) });
  const condition = conditionOf(params);
  if (typeof condition === 'string') return jsonAnswer({ error: `Invalid query: ${condition}.` }, 400);
  const waitMs = params.get('waitMs') === null ? DEFAULT_WAIT_MS : Number(params.get('waitMs'));
  if (!Number.isSafeInteger(waitMs) || waitMs < 0 || waitMs > MAX_WAIT_MS) return jsonAnswer({ error: `Invalid query: "waitMs" must be a whole number of milliseconds from 0 to ${MAX_WAIT_MS}, instead got ${JSON.stringify(params.get('waitMs'))}.` }, 400);
  const stream = await streams.waitFor(testId, id, condition ?? (() => true), condition === undefined ? 0 : waitMs);
  if (stream !== undefined) return jsonAnswer({ testId, stream });
  const last = (await streams.list(testId)).filter((view) => view.id === id).at(-1);
  if (last === undefined) return condition === undefined ? noSuchStream(testId, id, streams) : jsonAnswer({ error: `Test ${quote(testId)} had no stream ${quote(id)} within ${waitMs} ms.` }, 408);
  return jsonAnswer({ error: `The stream ${quote(id)} of test ${quote(testId)} did not get there within ${waitMs} ms: it is ${last.state} with ${last.delivered} of ${last.total} chunks delivered.`, stream: last }, 408);
}
