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
  /** The body bytes, read once and kept; `undefined` when the call has none. */
  bodyBytes(): Promise<Uint8Array | undefined>;
  /** True once `bodyBytes()` was called: a layer that passes the call on must then send the kept bytes. */
  readonly bodyConsumed: boolean;
  /** A Fetch `Request` for the call (function responses, the unhandled callback); reads the body. */
  toRequest(): Promise<Request>;
}

/** An `OutgoingCall` over a Fetch `Request`; the request itself stays unread (a clone is read). */
export function callFromRequest(request: Request, url = new URL(request.url)): OutgoingCall {
  let bytes: Promise<Uint8Array | undefined> | undefined;
  return {
    method: request.method.toUpperCase(),
    url,
    headers: request.headers,
    get bodyConsumed() {
      return bytes !== undefined;
    },
    bodyBytes() {
      bytes ??= request.body === null ? Promise.resolve(undefined) : request.clone().arrayBuffer().then(nonEmpty);
      return bytes;
    },
    toRequest: async () => request,
  };
}

/** The parts a layer knows of a call before any body is read. */
export interface CallParts {
  method: string;
  url: URL;
  headers: Headers;
  /** Reads the whole body; called at most once. */
  readBody: () => Promise<Uint8Array | undefined>;
}

/** An `OutgoingCall` from its parts, for layers that have no Fetch `Request` (the undici dispatcher). */
export function callFromParts({ method, url, headers, readBody }: CallParts): OutgoingCall {
  let bytes: Promise<Uint8Array | undefined> | undefined;
  const call: OutgoingCall = {
    method,
    url,
    headers,
    get bodyConsumed() {
      return bytes !== undefined;
    },
    bodyBytes() {
      bytes ??= readBody().then(nonEmpty);
      return bytes;
    },
    async toRequest() {
      const body = method === 'GET' || method === 'HEAD' ? undefined : await call.bodyBytes();
      return new Request(url, { method, headers, body: (body ?? null) as BodyInit | null });
    },
  };
  return call;
}

function nonEmpty(body: ArrayBuffer | Uint8Array | undefined): Uint8Array | undefined {
  if (body === undefined || body.byteLength === 0) return undefined;
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}
