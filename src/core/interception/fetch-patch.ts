import { NOT_NOW, socketNotCarried, type CallOutcome, type ImmediateOutcome } from './call-outcome.js';
import { capturedResponse } from '../recording/capture.js';
import { runRecordedCall } from '../recording/recorded-call-context.js';
import { addTestIdHeaders } from './propagation-headers.js';
import { hangUntilAborted, isConnectionFault, replyToResponse, simulatedNetworkError, wait, type MockReply } from './mock-reply.js';
import { callFromParts, callFromRequest, type OutgoingCall } from './outgoing-call.js';
import { parsedUrl } from './parsed-url.js';
import type { DispatcherLike } from './undici-dispatcher.js';
import { startHandler, writeReplyToHandler } from './write-reply-to-handler.js';

type FetchInit = RequestInit & { dispatcher?: unknown; duplex?: 'half' };

export interface FetchPatchOptions {
  decide(call: OutgoingCall): Promise<CallOutcome>;
  /** `decide` without awaiting, for the calls that allow it; `NOT_NOW` sends the call to `decide`. */
  decideNow(call: OutgoingCall): ImmediateOutcome;
  /**
   * The undici dispatchers, where fetch is undici (Node); `undefined` where it is not (Bun, Deno):
   * there a call that passes on goes to the runtime's own fetch as it is.
   */
  undici: UndiciDispatchers | undefined;
  /** Say once that this runtime's fetch cannot finish a mocked reply the way it would a real one (no dispatcher to answer through). */
  reportUnfinishable(message: string): void;
  /** Run before every call: notices a replaced global dispatcher. */
  beforeCall(): void;
  /** The current test ID, when a call that passes on to this URL must carry it (`propagate.hosts`). */
  propagatedTestId(url: URL): string | undefined;
}

export interface UndiciDispatchers {
  /** Where a call that passes on goes when the app named no dispatcher (skipping the harness's own). */
  passDispatcher(): DispatcherLike;
  /** The harness's dispatcher: answers the redirects a mocked reply starts. */
  harnessDispatcher: DispatcherLike;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Replace `globalThis.fetch` with a thin function that answers matched calls with the mock's
 * `Response` directly: no Request object, no stream, no emitter on the common path. Calls
 * that pass on go to the runtime's own fetch, captured here before patching; on Node with the
 * dispatcher that was there before, so the harness's dispatcher does not judge them a second time.
 * @returns a function that puts the original `fetch` back.
 */
export function installFetchPatch(options: FetchPatchOptions): () => void {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch')!;
  const { undici } = options;
  // Node's fetch takes undici's `dispatcher` in its init, which the DOM typings do not list.
  const original = globalThis.fetch as (input: RequestInfo | URL, init?: FetchInit) => Promise<Response>;

  async function fetch(input: RequestInfo | URL, init?: FetchInit): Promise<Response> {
    options.beforeCall();
    const call = toCall(input, init);
    if (call === undefined) return original(input, init);
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    if (signal?.aborted) throw signal.reason;
    const now = options.decideNow(call);
    if (now !== NOT_NOW) return respond(now.reply, call, input, init, signal);
    const outcome = await options.decide(call);
    if (outcome.kind === 'fail') throw new TypeError('fetch failed', { cause: outcome.error });
    if (outcome.kind === 'socket') throw new TypeError('fetch failed', { cause: socketNotCarried(call, 'fetch') });
    if (outcome.kind === 'pass') {
      if (outcome.capture === undefined) return passOn(input, init, call);
      // Only this call's own connections may pass the socket guard (recorded-call-context.ts).
      return capturedResponse(runRecordedCall(() => passOn(input, init, call)), outcome.capture);
    }
    return respond(outcome.reply, call, input, init, signal);
  }

  async function passOn(input: RequestInfo | URL, init: FetchInit | undefined, call: OutgoingCall): Promise<Response> {
    const next: FetchInit = undici === undefined ? { ...init } : { ...init, dispatcher: init?.dispatcher ?? undici.passDispatcher() };
    const testId = options.propagatedTestId(call.url);
    if (testId !== undefined) {
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
      addTestIdHeaders(testId, (name) => headers.get(name), (name, value) => headers.set(name, value));
      next.headers = headers;
    }
    // A string body was only read as a copy; any other kind was read through a Request built from it, which is sent instead.
    if (input instanceof Request || init?.body === undefined || init.body === null || typeof init.body === 'string') return original(input, next);
    return original(await call.toRequest(), { dispatcher: next.dispatcher, headers: next.headers ?? call.headers });
  }

  /** The reply as fetch's answer: synchronously for a plain reply, so the common call awaits nothing. */
  function respond(reply: MockReply, call: OutgoingCall, input: RequestInfo | URL, init: FetchInit | undefined, signal: AbortSignal | null | undefined): Response | Promise<Response> {
    const redirect = init?.redirect ?? (input instanceof Request ? input.redirect : 'follow');
    const follows = REDIRECT_STATUSES.has(reply.status) && redirect !== 'manual' && 'location' in reply.headers;
    if (follows || 'content-encoding' in reply.headers) {
      if (undici !== undefined) return answerThroughFetch(undici.harnessDispatcher, reply, call, input, init);
      // @note Bun's and Deno's fetch take no dispatcher, so the reply cannot be handed to them as a
      // real answer would be; handing it over as it is beats a real call to the mocked URL.
      options.reportUnfinishable(
        `A mock answered ${call.method} ${call.url.href} with ${follows ? `a redirect (${reply.status} to ${reply.headers.location})` : `content-encoding: ${reply.headers['content-encoding']}`}, which this runtime's fetch cannot follow or decode for a mocked reply: the app gets the reply as the mock wrote it. Mock the final answer (or a plain body) instead. (Logged once.)`,
      );
    }
    if (reply.delay > 0 || isConnectionFault(reply.fault) || reply.fault === 'timeout') return respondLater(reply, call, signal);
    return replyToResponse(reply, call.method, call.url);
  }

  /** Redirects and encoded bodies need fetch's own handling: let it run, with this reply as the first answer. */
  async function answerThroughFetch(harnessDispatcher: DispatcherLike, reply: MockReply, call: OutgoingCall, input: RequestInfo | URL, init: FetchInit | undefined): Promise<Response> {
    return original(input instanceof Request || init?.body === undefined || typeof init.body === 'string' ? input : await call.toRequest(), {
      ...init,
      dispatcher: answerOnce(reply, call, harnessDispatcher),
    });
  }

  /** A delay, a connection fault or a reply that never comes. */
  async function respondLater(reply: MockReply, call: OutgoingCall, signal: AbortSignal | null | undefined): Promise<Response> {
    if (reply.delay > 0) await wait(reply.delay, signal);
    if (isConnectionFault(reply.fault)) throw new TypeError('fetch failed', { cause: simulatedNetworkError(call.method, call.url, reply.fault) });
    if (reply.fault === 'timeout') return hangUntilAborted(signal);
    return replyToResponse(reply, call.method, call.url);
  }

  Object.defineProperty(globalThis, 'fetch', { ...descriptor, value: fetch });
  return () => {
    if (globalThis.fetch === fetch) Object.defineProperty(globalThis, 'fetch', descriptor);
  };
}

/**
 * The call as the engine sees it, without building a Request for the common cases (a URL or
 * string, with no body or a string body); `undefined` for URLs a mock never answers (`data:`,
 * `blob:`) and for arguments fetch itself will reject with its own error.
 */
function toCall(input: RequestInfo | URL, init: FetchInit | undefined): OutgoingCall | undefined {
  try {
    if (input instanceof Request) {
      const request = init === undefined ? input : new Request(input, init);
      return isHttp(request.url) ? callFromRequest(request) : undefined;
    }
    const url = parsedUrl(input instanceof URL ? input.href : String(input));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    const method = normaliseMethod(init?.method);
    const body = init?.body;
    if (body === undefined || body === null || typeof body === 'string') {
      const headers = new Headers(init?.headers);
      if (typeof body === 'string' && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
      return callFromParts({ method, url, headers, body, readBody: readStringBody });
    }
    // Form data, blobs, buffers, streams: a Request works out the bytes and the content type fetch would send.
    return callFromRequest(new Request(url, { ...init, duplex: 'half' } as RequestInit), url);
  } catch {
    return undefined;
  }
}

async function readStringBody(body: unknown): Promise<Uint8Array | undefined> {
  return typeof body === 'string' ? Buffer.from(body) : undefined;
}

function isHttp(href: string): boolean {
  return href.startsWith('http:') || href.startsWith('https:');
}

/** Mocks match methods case-insensitively (`fetch` sends `patch` as written, but no API means it differently). */
function normaliseMethod(method: string | undefined): string {
  return method === undefined ? 'GET' : method.toUpperCase();
}

/** A one-call dispatcher: answers the first call with `reply`, and any redirect it starts through the harness. */
function answerOnce(reply: MockReply, call: OutgoingCall, next: DispatcherLike): DispatcherLike {
  let used = false;
  return {
    dispatch(dispatchOptions, handler) {
      if (used) return next.dispatch(dispatchOptions, handler);
      used = true;
      const session = startHandler(handler);
      void writeReplyToHandler(session, reply, call.method, call.url);
      return true;
    },
  };
}
