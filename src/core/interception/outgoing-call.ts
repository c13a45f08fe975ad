import { hasNoDispatchHeaders, headersFromDispatch, recordHeaderEntries, recordHeaderValue, type DispatchHeaders } from './dispatch-options.js';
import { joinChunks, readChunksUpTo, streamOf, toBytes, type BodyHead, type ChunksRead } from './read-chunks-up-to.js';

/**
 * One outgoing call as every interception layer hands it to the engine: the fetch patch, the
 * undici dispatcher and the node:http interceptor each build one, so the engine never learns
 * which client made a call.
 */
export interface OutgoingCall {
  /** Upper case: mocks match methods case-insensitively. */
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  /** `'browser'` for a call a test's browser made (`POST /__harness__/answer`); absent for the app's own calls. */
  readonly side?: 'browser';
  /**
   * For an HTTP `Upgrade` request (a WebSocket handshake from `ws`, undici's WebSocket,
   * socket.io): the protocol it asks for, `websocket`. No HTTP mock answers it: it passes on, or
   * fails under `unhandled: 'error'`, and its journal entry carries `upgrade`.
   */
  readonly upgrade?: string;
  /** One header, as `headers.get(name)` gives it (the same value, maybe without building `headers`). */
  header(name: string): string | null;
  /**
   * The headers as lower-case name/value pairs, maybe without building `headers`: in any order, and
   * a name may come more than once (its values in the order sent), which a reader joins with `, `
   * as `Headers` does (`set-cookie` aside). Not sorting them saves every journaled call a sort;
   * the journal sorts when it is read.
   */
  headerEntries(): Iterable<[string, string]>;
  /** The body bytes, read once and kept; `undefined` when the call has none. */
  bodyBytes(): Promise<Uint8Array | undefined>;
  /**
   * The body's first `limit` bytes or so (reading stops at the first chunk past them), for a look
   * that must not buffer an upload whole, whatever its framing; `complete` says whether that is
   * all of it. `undefined` when the call has none. Once the body was read whole, all of it.
   */
  bodyHead(limit: number): Promise<BodyHead | undefined>;
  /** True once `bodyBytes()` or `bodyHead()` was called: a layer that passes the call on must then send `bodyToSend()`. */
  readonly bodyConsumed: boolean;
  /** What a layer passing the call on sends once `bodyConsumed`: the bytes read, or the part read followed by the rest as it comes. */
  bodyToSend(): Promise<Uint8Array | AsyncIterable<Uint8Array> | undefined>;
  /** A Fetch `Request` for the call (function responses, the unhandled callback); reads the body. */
  toRequest(): Promise<Request>;
}

/**
 * An `OutgoingCall` over a Fetch `Request`; the request itself stays unread (a clone is read).
 * @note Classes, not object literals with getters and closures: a call is built for every
 * intercepted request, and a literal with an accessor costs V8 several times more to create.
 */
class RequestCall implements OutgoingCall {
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  readonly #request: Request;
  #bytes: Promise<Uint8Array | undefined> | undefined;
  #head: Promise<BodyHead | undefined> | undefined;

  declare readonly upgrade?: string;

  constructor(request: Request, url: URL) {
    this.method = request.method.toUpperCase();
    this.url = url;
    this.headers = request.headers;
    this.#request = request;
    // Set only for an upgrade: other calls keep the class's usual shape.
    const upgrade = upgradeOf(request.headers);
    if (upgrade !== undefined) (this as { upgrade?: string }).upgrade = upgrade;
  }

  get bodyConsumed(): boolean {
    return this.#bytes !== undefined;
  }

  header(name: string): string | null {
    return this.headers.get(name);
  }

  headerEntries(): Iterable<[string, string]> {
    return this.headers;
  }

  bodyBytes(): Promise<Uint8Array | undefined> {
    this.#bytes ??= this.#request.body === null ? Promise.resolve(undefined) : this.#request.clone().arrayBuffer().then(nonEmpty);
    return this.#bytes;
  }

  /**
   * Read from a clone, and cancel the clone once past `limit`: the request itself keeps the body
   * (what the clone read waits in it, bounded by `limit`; the rest stays in its source).
   */
  bodyHead(limit: number): Promise<BodyHead | undefined> {
    if (this.#bytes !== undefined) return this.#bytes.then(wholeBody);
    if (this.#request.body === null) return Promise.resolve(undefined);
    this.#head ??= (async () => {
      const reader = this.#request.clone().body!.getReader();
      const { chunks, complete } = await readChunksUpTo({ next: () => reader.read() }, limit);
      if (!complete) {
        reader.cancel().catch(() => {});
        return { bytes: joinChunks(chunks), complete };
      }
      this.#bytes ??= Promise.resolve(nonEmpty(joinChunks(chunks)));
      return this.#bytes.then(wholeBody);
    })();
    return this.#head;
  }

  /** The request's own body is never read here (clones are): a layer passes the request on as it is. */
  bodyToSend(): Promise<Uint8Array | undefined> {
    return this.bodyBytes();
  }

  async toRequest(): Promise<Request> {
    return this.#request;
  }
}

export function callFromRequest(request: Request, url = new URL(request.url)): OutgoingCall {
  return new RequestCall(request, url);
}

/** The protocol an HTTP/1.1 `Upgrade` request asks for (`Connection: upgrade` with `Upgrade: <protocol>`), lower case. */
function upgradeOf(headers: Headers): string | undefined {
  const protocol = headers.get('upgrade');
  if (protocol === null || !/(^|,)\s*upgrade\s*(,|$)/i.test(headers.get('connection') ?? '')) return undefined;
  return protocol.trim().toLowerCase();
}

const NO_HEADERS: readonly [string, string][] = [];

/** The parts a layer knows of a call before any body is read. */
export interface CallParts {
  method: string;
  url: URL;
  /** The headers, or undici's dispatch form of them (a record, a flat list, pairs), read only when needed. */
  headers: Headers | DispatchHeaders;
  /** The body as the layer got it (a string, bytes, a stream…), handed to `readBody`. */
  body?: unknown;
  /** Reads the whole body from `body`; called at most once. */
  readBody: (body: unknown) => Promise<Uint8Array | undefined>;
  /** `'browser'`: a call the test's browser made, answered through the app (the journal marks it). */
  side?: 'browser';
  /** The protocol of an HTTP `Upgrade` request (undici's `upgrade` dispatch option). */
  upgrade?: string;
}

class PartsCall implements OutgoingCall {
  readonly method: string;
  readonly url: URL;
  #headers: Headers | undefined;
  readonly #dispatchHeaders: DispatchHeaders;
  readonly #body: unknown;
  readonly #readBody: (body: unknown) => Promise<Uint8Array | undefined>;
  declare readonly side?: 'browser';
  declare readonly upgrade?: string;
  #bytes: Promise<Uint8Array | undefined> | undefined;
  /** A streamed body's head, once read: its chunks and the stream, left where reading stopped. */
  #head: Promise<ChunksRead & { rest: AsyncIterator<unknown> }> | undefined;

  constructor({ method, url, headers, body, readBody, side, upgrade }: CallParts) {
    this.method = method;
    this.url = url;
    // Set only for a browser's call or an upgrade: the app's other calls keep the class's usual shape.
    if (side !== undefined) (this as { side?: 'browser' }).side = side;
    if (upgrade !== undefined) (this as { upgrade?: string }).upgrade = upgrade;
    if (headers instanceof Headers) this.#headers = headers;
    else this.#dispatchHeaders = headers;
    this.#body = body;
    this.#readBody = readBody;
  }

  /** Built on first use: a Fetch `Headers` costs a dispatched call ≈ 200 ns a header (Node 22, 24 and 26). */
  get headers(): Headers {
    this.#headers ??= headersFromDispatch(this.#dispatchHeaders);
    return this.#headers;
  }

  /** True for a call with no headers at all (undici's `request(url)`): nothing to build or look up. */
  #hasNoHeaders(): boolean {
    return this.#headers === undefined && hasNoDispatchHeaders(this.#dispatchHeaders);
  }

  header(name: string): string | null {
    if (this.#hasNoHeaders()) return null;
    // fetch's record of headers is read in place: the test-ID lookup of every call builds no `Headers`.
    if (this.#headers === undefined) {
      const value = recordHeaderValue(this.#dispatchHeaders, name.toLowerCase());
      if (value !== undefined) return value;
    }
    return this.headers.get(name);
  }

  headerEntries(): Iterable<[string, string]> {
    if (this.#hasNoHeaders()) return NO_HEADERS;
    return (this.#headers === undefined ? recordHeaderEntries(this.#dispatchHeaders) : undefined) ?? this.headers;
  }

  get bodyConsumed(): boolean {
    return this.#bytes !== undefined || this.#head !== undefined;
  }

  bodyBytes(): Promise<Uint8Array | undefined> {
    this.#bytes ??= this.#head === undefined ? this.#readBody(this.#body).then(nonEmpty) : this.#head.then(readRest);
    return this.#bytes;
  }

  /** A body in memory is read whole (it costs nothing more); a streamed one up to `limit`, leaving the stream there. */
  bodyHead(limit: number): Promise<BodyHead | undefined> {
    if (this.#bytes !== undefined) return this.#bytes.then(wholeBody);
    if (this.#head === undefined) {
      const rest = streamOf(this.#body);
      if (rest === undefined) return this.bodyBytes().then(wholeBody);
      this.#head = readChunksUpTo(rest, limit).then((read) => ({ ...read, rest }));
    }
    return this.#head.then(({ chunks, complete }) => (complete ? wholeBody(nonEmpty(joinChunks(chunks))) : { bytes: joinChunks(chunks), complete }));
  }

  async bodyToSend(): Promise<Uint8Array | AsyncIterable<Uint8Array> | undefined> {
    if (this.#bytes !== undefined || this.#head === undefined) return this.bodyBytes();
    const head = await this.#head;
    return head.complete ? this.bodyBytes() : sendRest(head);
  }

  async toRequest(): Promise<Request> {
    const body = this.method === 'GET' || this.method === 'HEAD' ? undefined : await this.bodyBytes();
    return new Request(this.url, { method: this.method, headers: this.headers, body: (body ?? null) as BodyInit | null });
  }
}

/** An `OutgoingCall` from its parts, for layers that have no Fetch `Request` (the undici dispatcher). */
export function callFromParts(parts: CallParts): OutgoingCall {
  return new PartsCall(parts);
}

/** A body read whole, as a head. */
function wholeBody(bytes: Uint8Array | undefined): BodyHead | undefined {
  return bytes === undefined ? undefined : { bytes, complete: true };
}

/** The whole body: the head's chunks and what is left in the stream. */
async function readRest({ chunks, complete, rest }: ChunksRead & { rest: AsyncIterator<unknown> }): Promise<Uint8Array | undefined> {
  const all = [...chunks];
  if (!complete) for (let next = await rest.next(); next.done !== true; next = await rest.next()) all.push(toBytes(next.value));
  return nonEmpty(joinChunks(all));
}

/** The head's chunks, then the rest of the stream as it comes: a pass-through never holds the body whole. */
async function* sendRest({ chunks, rest }: ChunksRead & { rest: AsyncIterator<unknown> }): AsyncGenerator<Uint8Array> {
  yield* chunks;
  for (let next = await rest.next(); next.done !== true; next = await rest.next()) yield toBytes(next.value);
}

function nonEmpty(body: ArrayBuffer | Uint8Array | undefined): Uint8Array | undefined {
  if (body === undefined || body.byteLength === 0) return undefined;
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}
