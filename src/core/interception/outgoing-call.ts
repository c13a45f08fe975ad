import { hasNoDispatchHeaders, headersFromDispatch, recordHeaderEntries, recordHeaderValue, type DispatchHeaders } from './dispatch-options.js';

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
  /** One header, as `headers.get(name)` gives it (the same value, maybe without building `headers`). */
  header(name: string): string | null;
  /** The headers as `headers` iterates them (lower-case names, sorted), maybe without building `headers`. */
  headerEntries(): Iterable<[string, string]>;
  /** The body bytes, read once and kept; `undefined` when the call has none. */
  bodyBytes(): Promise<Uint8Array | undefined>;
  /** True once `bodyBytes()` was called: a layer that passes the call on must then send the kept bytes. */
  readonly bodyConsumed: boolean;
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

  constructor(request: Request, url: URL) {
    this.method = request.method.toUpperCase();
    this.url = url;
    this.headers = request.headers;
    this.#request = request;
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

  async toRequest(): Promise<Request> {
    return this.#request;
  }
}

export function callFromRequest(request: Request, url = new URL(request.url)): OutgoingCall {
  return new RequestCall(request, url);
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
}

class PartsCall implements OutgoingCall {
  readonly method: string;
  readonly url: URL;
  #headers: Headers | undefined;
  readonly #dispatchHeaders: DispatchHeaders;
  readonly #body: unknown;
  readonly #readBody: (body: unknown) => Promise<Uint8Array | undefined>;
  #bytes: Promise<Uint8Array | undefined> | undefined;

  constructor({ method, url, headers, body, readBody }: CallParts) {
    this.method = method;
    this.url = url;
    if (headers instanceof Headers) this.#headers = headers;
    else this.#dispatchHeaders = headers;
    this.#body = body;
    this.#readBody = readBody;
  }

  /** Built on first use: a Fetch `Headers` costs a dispatched call ≈ 150 ns a header (Node 20). */
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
    return this.#bytes !== undefined;
  }

  bodyBytes(): Promise<Uint8Array | undefined> {
    this.#bytes ??= this.#readBody(this.#body).then(nonEmpty);
    return this.#bytes;
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

function nonEmpty(body: ArrayBuffer | Uint8Array | undefined): Uint8Array | undefined {
  if (body === undefined || body.byteLength === 0) return undefined;
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}
