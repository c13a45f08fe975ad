import { isConnectionFault, replyHasBody, statusText, truncatedBodyError, wait, type MockReply } from './mock-reply.js';

/**
 * An undici dispatch handler in either of the two shapes undici has used: the callbacks of
 * undici 6 and 7 (`onConnect`/`onHeaders`/`onData`/`onComplete`/`onError`) and those of undici 8
 * (`onRequestStart`/`onResponseStart`/`onResponseData`/`onResponseEnd`/`onResponseError`).
 * @see https://github.com/nodejs/undici/blob/main/docs/docs/api/Dispatcher.md
 */
export interface DispatchHandler {
  onConnect?(abort: (reason?: unknown) => void, context?: object): void;
  onResponseStarted?(): void;
  onHeaders?(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean | void;
  onData?(chunk: Buffer): boolean | void;
  onComplete?(trailers: Buffer[] | null): void;
  onError?(error: Error): void;
  onRequestStart?(controller: DispatchController, context: object): void;
  onResponseStart?(controller: DispatchController, statusCode: number, headers: Record<string, string | string[]>, statusMessage?: string): void;
  onResponseData?(controller: DispatchController, chunk: Buffer): void;
  onResponseEnd?(controller: DispatchController, trailers: Record<string, string | string[]>): void;
  onResponseError?(controller: DispatchController, error: Error): void;
}

/** The controller undici 8 hands to new-style handlers. */
export interface DispatchController {
  readonly aborted: boolean;
  readonly paused: boolean;
  readonly reason: unknown;
  abort(reason?: unknown): void;
  pause(): void;
  resume(): void;
}

/** True for a handler of undici 8's shape. */
export function isNewStyleHandler(handler: DispatchHandler): boolean {
  return typeof handler.onRequestStart === 'function' || typeof handler.onResponseStart === 'function';
}

function abortError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  return new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * The common protocol both shapes follow: start, (wait,) headers, data chunks with back
 * pressure, end — or an error at any point, and an abort from the caller at any point.
 */
interface HandlerSession {
  readonly aborted: boolean;
  start(): void;
  headers(status: number, headers: Readonly<Record<string, string>>, raw: Buffer[]): void;
  /** Hand over one chunk without waiting for back pressure (a whole body in one chunk, as undici's MockAgent does). */
  dataNow(chunk: Buffer): void;
  /** Resolves when the handler wants more (it returns false to pause until `resume`). */
  data(chunk: Buffer): Promise<void>;
  end(): void;
  fail(error: Error): void;
}

function legacySession(handler: DispatchHandler): HandlerSession {
  let aborted = false;
  let resumed: (() => void) | undefined;
  const resume = () => {
    const waiting = resumed;
    resumed = undefined;
    waiting?.();
  };
  return {
    get aborted() {
      return aborted;
    },
    start() {
      handler.onConnect?.((reason) => {
        if (aborted) return;
        aborted = true;
        resume();
        handler.onError?.(abortError(reason));
      }, {});
    },
    headers(status, _headers, raw) {
      handler.onResponseStarted?.();
      handler.onHeaders?.(status, raw, resume, statusText(status));
    },
    dataNow: (chunk) => void handler.onData?.(chunk),
    data(chunk) {
      if (handler.onData?.(chunk) !== false || aborted) return Promise.resolve();
      return new Promise((resolve) => (resumed = resolve));
    },
    end: () => handler.onComplete?.([]),
    fail: (error) => handler.onError?.(error),
  };
}

function newStyleSession(handler: DispatchHandler): HandlerSession {
  let aborted = false;
  let paused = false;
  let reason: unknown = null;
  let resumed: (() => void) | undefined;
  const controller: DispatchController = {
    get aborted() {
      return aborted;
    },
    get paused() {
      return paused;
    },
    get reason() {
      return reason;
    },
    abort(why) {
      if (aborted) return;
      aborted = true;
      reason = why;
      controller.resume();
      handler.onResponseError?.(controller, abortError(why));
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      const waiting = resumed;
      resumed = undefined;
      waiting?.();
    },
  };
  return {
    get aborted() {
      return aborted;
    },
    start: () => handler.onRequestStart?.(controller, {}),
    headers: (status, headers) => handler.onResponseStart?.(controller, status, { ...headers }, statusText(status)),
    dataNow: (chunk) => handler.onResponseData?.(controller, chunk),
    data(chunk) {
      handler.onResponseData?.(controller, chunk);
      if (!paused || aborted) return Promise.resolve();
      return new Promise((resolve) => (resumed = resolve));
    },
    end: () => handler.onResponseEnd?.(controller, {}),
    fail: (error) => handler.onResponseError?.(controller, error),
  };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Open a session on a handler of either shape and say it has started (so the caller can abort). */
export function startHandler(handler: DispatchHandler): HandlerSession {
  const session = isNewStyleHandler(handler) ? newStyleSession(handler) : legacySession(handler);
  session.start();
  return session;
}

/** A reply's headers and body as the buffers undici hands on, built once per reply object. */
interface EncodedReply {
  raw: Buffer[];
  body: Buffer | undefined;
}
const encoded = new WeakMap<MockReply, EncodedReply>();

function encode(reply: MockReply): EncodedReply {
  let parts = encoded.get(reply);
  if (parts !== undefined) return parts;
  const raw: Buffer[] = [];
  for (const name in reply.headers) raw.push(Buffer.from(name, 'latin1'), Buffer.from(reply.headers[name]!, 'latin1'));
  const { body } = reply;
  parts = { raw, body: body === null ? undefined : typeof body === 'string' ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
  // Fixed replies are shared by every call of their mock: their buffers are made once.
  if (Object.isFrozen(reply)) encoded.set(reply, parts);
  return parts;
}

/**
 * Write a mock's reply to an undici handler: delay, headers, body (chunked and paced for
 * streams). A plain reply with no delay is written synchronously, as undici's MockAgent does.
 */
export function writeReplyToHandler(session: HandlerSession, reply: MockReply, method: string, url: URL, networkError: () => Error): void | Promise<void> {
  if (reply.delay > 0 || reply.stream !== undefined) return writeSlowly(session, reply, method, url, networkError);
  if (session.aborted) return;
  if (isConnectionFault(reply.fault)) return session.fail(networkError());
  // Never answered: the handler waits until the caller aborts (its abort reaches it through start()).
  if (reply.fault === 'timeout') return;
  const { raw, body } = encode(reply);
  session.headers(reply.status, reply.headers, raw);
  if (body !== undefined && !session.aborted && replyHasBody(method, reply.status)) session.dataNow(body);
  if (!session.aborted) session.end();
}

async function writeSlowly(session: HandlerSession, reply: MockReply, method: string, url: URL, networkError: () => Error): Promise<void> {
  if (reply.delay > 0) await wait(reply.delay);
  if (session.aborted) return;
  if (isConnectionFault(reply.fault)) return session.fail(networkError());
  if (reply.fault === 'timeout') return;
  session.headers(reply.status, reply.headers, encode(reply).raw);
  if (replyHasBody(method, reply.status)) {
    if (reply.stream !== undefined) {
      const { chunks, intervalMs, failAfter } = reply.stream;
      for (let i = 0; i < chunks.length; i++) {
        if (session.aborted) return;
        // A turn of the event loop between chunks, as on a real connection: a reader sees each one
        // before the next arrives, and before a failure (which discards chunks not yet read).
        if (i > 0) await (intervalMs > 0 ? wait(intervalMs) : nextTurn());
        if (failAfter !== undefined && i >= failAfter) return session.fail(truncatedBodyError(url));
        if (session.aborted) return;
        await session.data(Buffer.from(chunks[i]!));
      }
      // Every chunk went out before `failAfter` was reached: the connection still drops before the end.
      if (failAfter !== undefined) {
        await nextTurn();
        return session.fail(truncatedBodyError(url));
      }
    } else if (reply.body !== null) {
      await session.data(typeof reply.body === 'string' ? Buffer.from(reply.body) : Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength));
    }
  }
  if (!session.aborted) session.end();
}
