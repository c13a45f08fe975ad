/** A body a mock answers with in one piece. */
type Content = string | Uint8Array;

const decoder = new TextDecoder();

function textOf(content: Content): string {
  return typeof content === 'string' ? content : decoder.decode(content);
}

function bytesOf(content: Content): Uint8Array<ArrayBuffer> {
  // A copy: the reply's bytes are shared by every call of its mock.
  return typeof content === 'string' ? new TextEncoder().encode(content) : new Uint8Array(content);
}

function alreadyRead(): TypeError {
  return new TypeError('Body is unusable: Body has already been read');
}

/**
 * The `Response` a mocked fetch call gets: a real `Response` (its status, headers and `url` as
 * fetch's own), whose body is kept as the reply's text or bytes until something reads it.
 *
 * @note Why not `new Response(body)`: in Node's fetch (undici 6, 7 and 8: Node 22, 24 and 26)
 * every Response body is a web `ReadableStream`, and creating one (undici's extractBody) and
 * reading it back is most of a mocked call's cost (`new Response(text).json()` ≈ 3.4–5.6 µs, a
 * bodiless `Response` and `JSON.parse` ≈ 0.6 µs, measured). Here `text()`/`json()`/
 * `arrayBuffer()`/`blob()`/`bytes()` read the kept content directly, and the stream is made only
 * when something asks for `body` (a stream reader, `Readable.fromWeb`, the node:http layer); from
 * then on every read goes through it, so `bodyUsed` and "read once" behave exactly as on any
 * Response.
 *
 * @note Defined on the first mocked call, not when this module loads: `extends Response` reads
 * the global, which makes Node load its fetch implementation (undici, net, tls), and this module
 * loads with every harness, also one with `enabled: false`.
 */
function defineMockResponse() {
  return class MockResponse extends Response {
    readonly #url: string;
    /**
     * A kept body's headers, made into `Headers` when first asked for. Many apps never read a
     * mocked answer's headers (`await r.json()`), and `Response` validating and copying them at
     * construction was a third of what a mocked `fetch` costs the harness.
     */
    #headersInit: HeadersInit | undefined;
    #headers: Headers | undefined;
    /** `undefined`: there is no kept content (no body, a streamed body, or it was read). */
    #content: Content | undefined;
    #used = false;
    /** Once `body` was asked for: a Response over that stream, which every read then goes through. */
    #streamed: Response | undefined;

    /**
     * @param body kept as it is when text or bytes; a stream or `null` goes to `Response` itself
     * @param init a reply's status and headers; they always name the body's `content-type` (buildReply
     *   sets one for every body), so the `text/plain` fetch would add for a text body is never needed
     * @param url the call's URL, which `url` reports as fetch does (a constructed Response has `''`)
     */
    constructor(body: Content | ReadableStream<Uint8Array> | null, init: ResponseInit, url: string) {
      const kept = typeof body === 'string' || body instanceof Uint8Array;
      // A stream or no body: `Response` keeps the headers, as its own reads of them need.
      super(kept ? null : body, kept ? { status: init.status, statusText: init.statusText } : init);
      this.#url = url;
      this.#content = kept ? body : undefined;
      if (kept) this.#headersInit = init.headers ?? {};
    }

    override get url(): string {
      return this.#url;
    }

    override get headers(): Headers {
      if (this.#headersInit === undefined) return super.headers;
      this.#headers ??= new Headers(this.#headersInit);
      return this.#headers;
    }

    override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
      return this.#stream()?.body ?? super.body;
    }

    override get bodyUsed(): boolean {
      return this.#streamed?.bodyUsed ?? (this.#used || super.bodyUsed);
    }

    override async text(): Promise<string> {
      const content = this.#take();
      if (content !== undefined) return textOf(content);
      return this.#streamed === undefined ? super.text() : this.#streamed.text();
    }

    override async json(): Promise<unknown> {
      const content = this.#take();
      if (content !== undefined) return JSON.parse(textOf(content));
      return this.#streamed === undefined ? super.json() : this.#streamed.json();
    }

    override async arrayBuffer(): Promise<ArrayBuffer> {
      const content = this.#take();
      if (content !== undefined) return bytesOf(content).buffer;
      return this.#streamed === undefined ? super.arrayBuffer() : this.#streamed.arrayBuffer();
    }

    override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
      const content = this.#take();
      if (content !== undefined) return bytesOf(content);
      return this.#streamed === undefined ? super.bytes() : this.#streamed.bytes();
    }

    override async blob(): Promise<Blob> {
      const content = this.#take();
      if (content !== undefined) return new Blob([bytesOf(content)], { type: this.headers.get('content-type') ?? '' });
      return this.#streamed === undefined ? super.blob() : this.#streamed.blob();
    }

    override async formData(): Promise<FormData> {
      const content = this.#take();
      if (content !== undefined) return new Response(bytesOf(content), { headers: this.headers }).formData();
      return this.#streamed === undefined ? super.formData() : this.#streamed.formData();
    }

    override clone(): Response {
      if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
      const init = { status: this.status, statusText: this.statusText, headers: this.headers };
      if (this.#content !== undefined && this.#streamed === undefined) return new MockResponse(this.#content, init, this.#url);
      const copy = this.#streamed === undefined ? super.clone() : this.#streamed.clone();
      return new MockResponse(copy.body, init, this.#url);
    }

    /** The kept content, marking the body read; `undefined` when reads go through a stream or `Response` itself. */
    #take(): Content | undefined {
      if (this.#streamed !== undefined || (this.#content === undefined && !this.#used)) return undefined;
      if (this.#used) throw alreadyRead();
      this.#used = true;
      const content = this.#content;
      this.#content = undefined;
      return content;
    }

    #stream(): Response | undefined {
      if (this.#streamed === undefined && (this.#content !== undefined || this.#used)) {
        // Already read: a stream that is read too, as a used Response's body is.
        this.#streamed = new Response(this.#content === undefined ? '' : bytesOf(this.#content), { headers: this.headers });
        if (this.#used) void this.#streamed.arrayBuffer();
        this.#content = undefined;
      }
      return this.#streamed;
    }
  };
}

let mockResponseClass: ReturnType<typeof defineMockResponse> | undefined;

/** The `Response` a mocked call gets (`MockResponse` above): text or bytes kept as given, `url` the call's. */
export function createMockResponse(body: Content | ReadableStream<Uint8Array> | null, init: ResponseInit, url: string): Response {
  mockResponseClass ??= defineMockResponse();
  return new mockResponseClass(body, init, url);
}
