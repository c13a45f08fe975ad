import { chunkOffset, isConnectionFault, isPaced, replyHasBody, simulatedNetworkError, statusText, truncatedBodyError, wait, type MockReply, type ReplyStream, type StreamEnd } from './mock-reply.js';
import { streamClock } from './stream-clock.js';

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
  /**
   * The response's headers as undici's raw list (name, value, name, value… as Buffers), set
   * before `onResponseStart`. Node 26's fetch (undici 8) reads the headers only from here.
   */
  readonly rawHeaders?: Buffer[] | null;
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

/**
 * undici 6/7 handlers. A class, not closures: one is made for every answered call.
 */
class LegacySession implements HandlerSession {
  aborted = false;
  readonly #handler: DispatchHandler;
  #resumed: (() => void) | undefined;
  readonly #resume = () => {
    const waiting = this.#resumed;
    this.#resumed = undefined;
    waiting?.();
  };

  constructor(handler: DispatchHandler) {
    this.#handler = handler;
  }

  start(): void {
    this.#handler.onConnect?.((reason) => {
      if (this.aborted) return;
      this.aborted = true;
      this.#resume();
      this.#handler.onError?.(abortError(reason));
    }, {});
  }

  headers(status: number, _headers: Readonly<Record<string, string>>, raw: Buffer[]): void {
    this.#handler.onResponseStarted?.();
    this.#handler.onHeaders?.(status, raw, this.#resume, statusText(status));
  }

  dataNow(chunk: Buffer): void {
    this.#handler.onData?.(chunk);
  }

  data(chunk: Buffer): Promise<void> {
    if (this.#handler.onData?.(chunk) !== false || this.aborted) return Promise.resolve();
    return new Promise((resolve) => (this.#resumed = resolve));
  }

  end(): void {
    this.#handler.onComplete?.([]);
  }

  fail(error: Error): void {
    this.#handler.onError?.(error);
  }
}

/** undici 8 handlers: the session is also the controller they are handed. */
class NewStyleSession implements HandlerSession, DispatchController {
  aborted = false;
  paused = false;
  reason: unknown = null;
  rawHeaders: Buffer[] | null = null;
  readonly #handler: DispatchHandler;
  #resumed: (() => void) | undefined;

  constructor(handler: DispatchHandler) {
    this.#handler = handler;
  }

  abort(why?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = why;
    this.resume();
    this.#handler.onResponseError?.(this, abortError(why));
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    const waiting = this.#resumed;
    this.#resumed = undefined;
    waiting?.();
  }

  start(): void {
    this.#handler.onRequestStart?.(this, {});
  }

  headers(status: number, headers: Readonly<Record<string, string>>, raw: Buffer[]): void {
    // @note undici 8's fetch takes the headers from `controller.rawHeaders` alone: without it a
    // mocked response reaches Node 26's fetch with no headers at all.
    this.rawHeaders = raw;
    this.#handler.onResponseStart?.(this, status, { ...headers }, statusText(status));
  }

  dataNow(chunk: Buffer): void {
    this.#handler.onResponseData?.(this, chunk);
  }

  data(chunk: Buffer): Promise<void> {
    this.#handler.onResponseData?.(this, chunk);
    if (!this.paused || this.aborted) return Promise.resolve();
    return new Promise((resolve) => (this.#resumed = resolve));
  }

  end(): void {
    this.#handler.onResponseEnd?.(this, {});
  }

  fail(error: Error): void {
    this.#handler.onResponseError?.(this, error);
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Open a session on a handler of either shape and say it has started (so the caller can abort). */
export function startHandler(handler: DispatchHandler): HandlerSession {
  const session = isNewStyleHandler(handler) ? new NewStyleSession(handler) : new LegacySession(handler);
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
export function writeReplyToHandler(session: HandlerSession, reply: MockReply, method: string, url: URL): void | Promise<void> {
  if (reply.delay > 0 || reply.stream !== undefined) return writeSlowly(session, reply, method, url);
  if (session.aborted) return;
  if (isConnectionFault(reply.fault)) return session.fail(simulatedNetworkError(method, url, reply.fault));
  // Never answered: the handler waits until the caller aborts (its abort reaches it through start()).
  if (reply.fault === 'timeout') return;
  const { raw, body } = encode(reply);
  session.headers(reply.status, reply.headers, raw);
  if (body !== undefined && !session.aborted && replyHasBody(method, reply.status)) session.dataNow(body);
  if (!session.aborted) session.end();
}

/** Write a reply's chunks; false when the call ended on the way (aborted, or the stream failed as told). */
async function writeStream(session: HandlerSession, stream: ReplyStream, url: URL): Promise<boolean> {
  const { chunks, failAfter, pacer } = stream;
  const paced = isPaced(stream);
  // The offsets count from the headers, just sent; a hold moves this on by its length.
  let startedAt = paced ? performance.now() : 0;
  let sent = 0;
  const end = (how: StreamEnd, result: boolean) => {
    pacer?.ended(sent, how);
    return result;
  };
  for (let i = 0; i < chunks.length; i++) {
    if (session.aborted) return end('cancelled', false);
    // A turn of the event loop between chunks, as on a real connection: a reader sees each one
    // before the next arrives, and before a failure (which discards chunks not yet read).
    const at = paced ? startedAt + chunkOffset(stream, i) : 0;
    if (paced && at > performance.now()) await streamClock.until(at);
    else if (i > 0) await nextTurn();
    if (failAfter !== undefined && i >= failAfter) {
      session.fail(truncatedBodyError(url));
      return end('failed', false);
    }
    const held = pacer?.beforeChunk(i);
    if (held !== undefined) {
      const heldAt = paced ? performance.now() : 0;
      try {
        await held;
      } catch (reason) {
        session.fail(reason as Error);
        return end('aborted', false);
      }
      if (paced) startedAt += performance.now() - heldAt;
    }
    if (session.aborted) return end('cancelled', false);
    await session.data(Buffer.from(chunks[i]!));
    sent++;
  }
  // Every chunk went out before `failAfter` was reached: the connection still drops before the end.
  if (failAfter !== undefined) {
    await nextTurn();
    session.fail(truncatedBodyError(url));
    return end('failed', false);
  }
  return end('complete', true);
}

async function writeSlowly(session: HandlerSession, reply: MockReply, method: string, url: URL): Promise<void> {
  if (reply.delay > 0) await wait(reply.delay);
  if (session.aborted) return;
  if (isConnectionFault(reply.fault)) return session.fail(simulatedNetworkError(method, url, reply.fault));
  if (reply.fault === 'timeout') return;
  session.headers(reply.status, reply.headers, encode(reply).raw);
  if (replyHasBody(method, reply.status)) {
    if (reply.stream !== undefined) {
      if (!(await writeStream(session, reply.stream, url))) return;
    } else if (reply.body !== null) {
      await session.data(typeof reply.body === 'string' ? Buffer.from(reply.body) : Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength));
    }
  }
  if (!session.aborted) session.end();
}
