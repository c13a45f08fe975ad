import type { LlmApi, MockFault } from '../types.js';
import { createMockResponse } from './mock-response.js';
import { streamClock } from './stream-clock.js';

/**
 * What a mock answers, as plain data: each interception layer writes it out its own way (a
 * Fetch `Response` for the fetch patch and the node:http interceptor, handler callbacks for the
 * undici dispatcher), so no layer pays for another's representation.
 */
export interface MockReply {
  status: number;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  /** `null`: no body. */
  body: string | Uint8Array | null;
  /** Chunks sent one after another, instead of `body`. */
  stream: ReplyStream | undefined;
  /** Milliseconds to wait before answering. */
  delay: number;
  /**
   * `'network'`/`'reset'`: the call fails with a connection error; `'timeout'`: it is never
   * answered; `'malformed'`: `stream` already holds the truncated body (the fault is kept for the journal).
   */
  fault: MockFault | undefined;
  /** An `llm` mock's answer, when the app gets it whole: what the contract checks read (`contracts.llm`). */
  llm?: LlmReplyAnswer;
}

/**
 * An `llm` answer as data, beside its wire format: its text and tool calls as the app reads them
 * once parsed, and the request body it answers (whose `response_format`, tools… it should fit).
 */
export interface LlmReplyAnswer {
  api: LlmApi;
  text: string;
  /** Each call's arguments as JSON text, as the mock's were written out. */
  toolCalls: readonly { name: string; arguments: string }[];
  /** The request's parsed JSON body (`undefined` when it is not an object). */
  requestBody: Record<string, unknown> | undefined;
}

/** A body sent in chunks, on a schedule, optionally failing part way. */
export interface ReplyStream {
  chunks: readonly Uint8Array[];
  /**
   * The pause between two chunks when there is no `schedule` (chunk i goes at i × intervalMs).
   * With a schedule, what `timing.intervalMs` (or `stream.intervalMs`) said, for reading only.
   */
  intervalMs: number;
  /**
   * When each chunk goes, in milliseconds from the answer's headers (one offset per chunk),
   * computed when the reply is built; `undefined` when none waits. Time a pacer holds the
   * stream does not count: after a hold, the rest keeps its pace.
   */
  schedule?: readonly number[];
  /** Fail the body after this many chunks (the connection drops mid-body). */
  failAfter: number | undefined;
  /** The stream's name, as the test addresses it (`releaseStream(id)`): its mock's `id`, else its mock's place. */
  id?: string;
  /** The stream's key among every process's streams, once a part follows it for this call (the journal shows how far it got). */
  key?: string;
  /** Stop after this many chunks until the test releases, steps or aborts the stream (the streams part acts on it). */
  hold?: { afterChunks: number };
  /**
   * What else decides when each chunk goes, for this one call (a test holding the stream). Set
   * on a copy of the reply made for the call, never on a reply its mock shares.
   */
  pacer?: StreamPacer;
}

/** How a stream ended: every chunk sent, cut off (`failAfter`, or the pacer aborted it), or the reader went away. */
export type StreamEnd = 'complete' | 'failed' | 'aborted' | 'cancelled';

/** One call's say over its stream's chunks. */
export interface StreamPacer {
  /**
   * Before chunk `index` goes (after its pause): a promise to wait for (a hold), or `undefined`
   * to send it now. A rejection aborts the stream: the reader's body fails with that error.
   */
  beforeChunk(index: number): Promise<void> | undefined;
  /** Once, when the stream ended: how many chunks the reader was sent, and how it ended. */
  ended(delivered: number, how: StreamEnd): void;
}

let statusCodes: Record<number, string | undefined> | undefined;

/** The reason phrase for a status, for layers that send one. */
export function statusText(status: number): string {
  // @note Got on first use, not imported: this module loads with the harness even when it is off, and node:http need not.
  statusCodes ??= process.getBuiltinModule('node:http').STATUS_CODES;
  return statusCodes[status] ?? '';
}

/** Statuses whose responses never have a body (Fetch refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** True when a reply to this method and status carries a body at all. */
export function replyHasBody(method: string, status: number): boolean {
  return method !== 'HEAD' && !NULL_BODY_STATUSES.has(status);
}

/** The error a call fails with for `error: 'network'` or `'reset'`, shaped like Node's own connection errors. */
export function simulatedNetworkError(method: string, url: URL, fault: MockFault = 'network'): Error {
  const [code, what] = fault === 'reset' ? ['ECONNRESET', 'read ECONNRESET: the connection was reset'] : ['ECONNREFUSED', 'connect ECONNREFUSED'];
  return Object.assign(new Error(`${what}: ${method} ${url.origin}${url.pathname} failed with a simulated network error (scenario-harness mock with error: '${fault}')`), { code });
}

/** True for the faults that fail a call with a connection error before any answer. */
export function isConnectionFault(fault: MockFault | undefined): fault is 'network' | 'reset' {
  return fault === 'network' || fault === 'reset';
}

/** A promise that settles only when `signal` aborts (never without one): the `'timeout'` fault. */
export function hangUntilAborted(signal?: AbortSignal | null): Promise<never> {
  return new Promise((_, reject) => {
    if (signal === undefined || signal === null) return;
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** Resolve after `ms`, or reject with the signal's reason when it aborts first. */
export function wait(ms: number, signal?: AbortSignal | null): Promise<void> {
  if (ms <= 0 && !signal?.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** When chunk `index` is due, in milliseconds after the headers: its offset in the schedule, or index × intervalMs. */
export function chunkOffset(stream: ReplyStream, index: number): number {
  return stream.schedule === undefined ? index * stream.intervalMs : (stream.schedule[index] ?? 0);
}

/** True when some chunk of the stream waits for its time. */
export function isPaced(stream: ReplyStream): boolean {
  return stream.schedule !== undefined || stream.intervalMs > 0;
}

/** A web stream of the reply's chunks, each at its time (`schedule`) and when its pacer lets it go, erroring after `failAfter` chunks. */
export function replyStreamBody(stream: ReplyStream, error: () => Error): ReadableStream<Uint8Array> {
  let index = 0;
  let done = false;
  const paced = isPaced(stream);
  // The offsets count from here, when the caller gets the headers; a hold moves it on by its length.
  let startedAt = paced ? performance.now() : 0;
  const end = (how: StreamEnd) => {
    if (!done) stream.pacer?.ended(index, how);
    done = true;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stream.failAfter !== undefined && index >= stream.failAfter) {
        end('failed');
        controller.error(error());
        return;
      }
      if (index >= stream.chunks.length) {
        // With `failAfter` set, the body never ends cleanly: it drops after the last chunk at the latest.
        if (stream.failAfter !== undefined) {
          end('failed');
          controller.error(error());
        } else {
          end('complete');
          controller.close();
        }
        return;
      }
      if (paced) {
        const at = startedAt + chunkOffset(stream, index);
        if (at > performance.now()) await streamClock.until(at);
      }
      const held = stream.pacer?.beforeChunk(index);
      if (held !== undefined) {
        const heldAt = paced ? performance.now() : 0;
        try {
          await held;
        } catch (reason) {
          end('aborted');
          controller.error(reason);
          return;
        }
        if (paced) startedAt += performance.now() - heldAt;
      }
      if (done) return;
      controller.enqueue(stream.chunks[index++]!);
    },
    cancel() {
      end('cancelled');
    },
  });
}

/** The reply as a Fetch `Response` (its `url` set to the call's, as fetch does). */
export function replyToResponse(reply: MockReply, method: string, url: URL): Response {
  const hasBody = replyHasBody(method, reply.status);
  const body = !hasBody ? null : reply.stream !== undefined ? replyStreamBody(reply.stream, () => truncatedBodyError(url)) : reply.body;
  return createMockResponse(body, { status: reply.status, statusText: statusText(reply.status), headers: reply.headers }, url.href);
}

/** The error a streamed body fails with after `failAfter` chunks. */
export function truncatedBodyError(url: URL): Error {
  return Object.assign(new Error(`The response body of ${url.origin}${url.pathname} was cut off (scenario-harness mock stream with failAfter)`), { code: 'ECONNRESET' });
}
