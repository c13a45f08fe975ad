import { quote } from '../core/dev-utils.js';
import type { StreamState, StreamView } from '../parts/streams/stream-registry.js';
import type { ControlConnection } from './control-connection.js';
import { isRecord } from './is-record.js';

/*
 * Streams: a test's view of its streamed answers, and its hand on the ones its mocks hold
 * (`hold: { afterChunks }`): list them, wait until one gets somewhere, release, step or abort it.
 */

export type { StreamState, StreamView } from '../parts/streams/stream-registry.js';

export interface WaitForStreamOptions {
  /** Wait until at least this many chunks went to the app. */
  delivered?: number;
  /** Wait until the stream is in this state (`'held'`: stopped at its hold). */
  state?: StreamState;
  /** Milliseconds to wait in all. @default 5000 */
  timeout?: number;
}

/** The most one control call waits (the endpoint's own bound); a longer wait asks again. */
const MAX_WAIT_PER_CALL = 30_000;

export async function streams(connection: ControlConnection): Promise<StreamView[]> {
  const action = `list the streams of test ${quote(connection.testId)}`;
  const response = await connection.send(action, 'GET', connection.endpoints.streams);
  if (response.status !== 200 || !isRecord(response.body) || !Array.isArray(response.body.streams)) connection.fail(action, 'GET', connection.endpoints.streams, response);
  return (response.body as { streams: StreamView[] }).streams;
}

export async function waitForStream(connection: ControlConnection, id: string, options: WaitForStreamOptions = {}): Promise<StreamView> {
  const { delivered, state, timeout = 5000 } = options;
  const wanted = [state === undefined ? undefined : `is ${state}`, delivered === undefined ? undefined : `has sent ${delivered} chunks`].filter(Boolean).join(' and ') || 'starts';
  const action = `wait until the stream ${quote(id)} of test ${quote(connection.testId)} ${wanted}`;
  const deadline = Date.now() + timeout;
  for (;;) {
    const waitMs = Math.max(0, Math.min(MAX_WAIT_PER_CALL, deadline - Date.now()));
    const query = new URLSearchParams({ id, waitMs: String(waitMs), ...(state === undefined ? {} : { state }), delivered: String(delivered ?? 0) });
    const path = `${connection.endpoints.streams}?${query}`;
    const response = await connection.send(action, 'GET', path);
    if (response.status === 200 && isRecord(response.body) && isRecord(response.body.stream)) return response.body.stream as unknown as StreamView;
    // Past one call's bound, but not the caller's: ask again.
    if (response.status === 408 && Date.now() < deadline) continue;
    connection.fail(action, 'GET', path, response);
  }
}

async function act(connection: ControlConnection, id: string, body: { action: 'release' | 'step' | 'abort'; count?: number }, what: string): Promise<StreamView> {
  const action = `${what} the stream ${quote(id)} of test ${quote(connection.testId)}`;
  const response = await connection.send(action, 'POST', connection.endpoints.streams, { id, ...body });
  if (response.status !== 200 || !isRecord(response.body) || !isRecord(response.body.stream)) connection.fail(action, 'POST', connection.endpoints.streams, response);
  return (response.body as { stream: StreamView }).stream;
}

export const releaseStream = (connection: ControlConnection, id: string) => act(connection, id, { action: 'release' }, 'release');
export const stepStream = (connection: ControlConnection, id: string, count = 1) => act(connection, id, { action: 'step', count }, `let ${count} more ${count === 1 ? 'chunk' : 'chunks'} through`);
export const abortStream = (connection: ControlConnection, id: string) => act(connection, id, { action: 'abort' }, 'abort');
