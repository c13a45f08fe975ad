import { TEST_ID_HEADER } from '../constants.js';
import { tryGetTestId } from '../test-context.js';
import { NOT_NOW, socketNotCarried, type CallOutcome, type ImmediateOutcome } from './call-outcome.js';
import { SOCKET_TICKET_HEADER, type SocketBridge } from './socket-bridge.js';
import { socketUrlOf } from './socket-url.js';
import { timedChunks, type CaptureHandle } from '../recording/capture.js';
import { runRecordedCall } from '../recording/recorded-call-context.js';
import { addTestIdHeaders } from './propagation-headers.js';
import { headersFromDispatch, readDispatchBody, urlOfDispatch, type DispatchHeaders, type DispatchOptions } from './dispatch-options.js';
import { callFromParts, type OutgoingCall } from './outgoing-call.js';
import { isNewStyleHandler, startHandler, writeReplyToHandler, type DispatchHandler } from './write-reply-to-handler.js';

/** Anything with undici's `dispatch(options, handler)`: an Agent, a ProxyAgent, a MockAgent… */
export interface DispatcherLike {
  dispatch(options: DispatchOptions, handler: DispatchHandler): boolean;
  close?(): unknown;
  destroy?(): unknown;
}

/**
 * The global dispatcher slots. undici 6 (Node 22's fetch, and the package) reads and writes only
 * `.1`; undici 7 (Node 24's fetch, and the package) reads `.1`, and from 7.27 writes `.1` and `.2`;
 * undici 8 (Node 26's fetch, and the package) reads `.2`.
 * @see https://github.com/nodejs/undici/blob/main/lib/global.js
 */
export const GLOBAL_DISPATCHER_SLOTS = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')] as const;

export interface HarnessDispatcherOptions {
  decide(call: OutgoingCall): Promise<CallOutcome>;
  /** `decide` without awaiting, for the calls that allow it; `NOT_NOW` sends the call to `decide`. */
  decideNow(call: OutgoingCall): ImmediateOutcome;
  /** Where calls no mock answers go, by handler shape: the dispatchers that were there before. */
  fallback(newStyle: boolean): DispatcherLike;
  /** Add the test-ID headers to a call that passes on, when the harness propagates to its host. */
  propagate(url: URL): boolean;
  /** Where an upgrade a socket mock answers is sent (absent: such an upgrade fails, saying why). */
  bridge?: SocketBridge;
}

/**
 * The undici dispatcher the harness puts in the global slot: every call `fetch` makes (even
 * through a reference captured before `start()`, because fetch looks the dispatcher up on every
 * call) and every call of the `undici` package's `request`, `fetch` and `stream` reaches it.
 * Calls no mock answers go to the dispatcher that was there before, so an app's ProxyAgent
 * keeps working.
 */
export function createHarnessDispatcher({ decide, decideNow, fallback, propagate, bridge }: HarnessDispatcherOptions): DispatcherLike {
  function passOn(options: DispatchOptions, handler: DispatchHandler, body: Uint8Array | AsyncIterable<Uint8Array> | undefined, consumed: boolean, url: URL): boolean {
    let next = consumed ? { ...options, body: body ?? null } : options;
    if (propagate(url)) next = { ...next, headers: withTestIdHeaders(next.headers) };
    return fallback(isNewStyleHandler(handler)).dispatch(next, handler);
  }

  async function handle(options: DispatchOptions, handler: DispatchHandler, call: OutgoingCall): Promise<void> {
    const { url } = call;
    const outcome = await decide(call);
    if (outcome.kind === 'pass') {
      const body = call.bodyConsumed ? await call.bodyToSend() : undefined;
      if (outcome.capture === undefined) passOn(options, handler, body, call.bodyConsumed, url);
      // Only this call's own connections may pass the socket guard (recorded-call-context.ts).
      else runRecordedCall(() => passOn(options, capturingHandler(handler, outcome.capture!), body, call.bodyConsumed, url));
      return;
    }
    if (outcome.kind === 'socket') {
      // The client's handshake goes to the harness's WebSocket server instead, over loopback.
      if (bridge === undefined) return startHandler(handler).fail(socketNotCarried(call, 'this dispatcher'));
      const ticket = bridge.expect({ url: socketUrlOf(url), answer: outcome.socket });
      const headers = headersFromDispatch(options.headers);
      headers.set(SOCKET_TICKET_HEADER, ticket);
      fallback(isNewStyleHandler(handler)).dispatch({ ...options, origin: `http://${bridge.host}`, headers: [...headers].flat() }, handler);
      return;
    }
    const session = startHandler(handler);
    if (outcome.kind === 'fail') return session.fail(outcome.error);
    await writeReplyToHandler(session, outcome.reply, call.method, url);
  }

  return {
    dispatch(options, handler) {
      // A CONNECT tunnel (a proxy) is transport, not a call: it goes on as it came.
      if (options.method === 'CONNECT') return fallback(isNewStyleHandler(handler)).dispatch(options, handler);
      let url: URL;
      try {
        url = urlOfDispatch(options);
      } catch {
        return fallback(isNewStyleHandler(handler)).dispatch(options, handler);
      }
      let body = options.body;
      let headers: Headers | DispatchHeaders = options.headers;
      if (body instanceof FormData) {
        // Serialised once, here, so the boundary in the content type and the bytes agree on a pass-through too.
        const encoded = new Response(body);
        const withType = headersFromDispatch(options.headers);
        withType.set('content-type', encoded.headers.get('content-type')!);
        headers = withType;
        body = encoded.arrayBuffer().then((buffer) => new Uint8Array(buffer));
        options = { ...options, headers: [...withType].flat() };
      }
      const method = options.method.toUpperCase();
      // An upgrade (undici's WebSocket) is marked: the engine never answers one from an HTTP mock.
      const upgrade = options.upgrade ? options.upgrade.toLowerCase() : undefined;
      // @note No closure is made on the common path below: a dispatched call allocates as little as MockAgent's.
      if (body instanceof Promise) {
        body
          .then((bytes) => handle({ ...options, body: bytes }, handler, callFromParts({ method, url, headers, body: bytes, readBody: readDispatchBody, upgrade })))
          .catch((error: unknown) => failHandler(handler, error));
        return true;
      }
      const call = callFromParts({ method, url, headers, body, readBody: readDispatchBody, upgrade });
      try {
        // A plain reply is written before dispatch returns, as undici's MockAgent does: no promise, no tick.
        const now = decideNow(call);
        if (now !== NOT_NOW) {
          writeReplyToHandler(startHandler(handler), now.reply, method, url)?.catch((error: unknown) => failHandler(handler, error));
          return true;
        }
      } catch (error) {
        failHandler(handler, error);
        return true;
      }
      handle(options, handler, call).catch((error: unknown) => failHandler(handler, error));
      return true;
    },
    close: () => Promise.resolve(),
    destroy: () => Promise.resolve(),
  };
}

/**
 * A handler that copies the upstream's response for a recording test, and hands everything on
 * to the caller's handler unchanged (both handler shapes).
 */
function capturingHandler(handler: DispatchHandler, capture: CaptureHandle): DispatchHandler {
  let status = 0;
  let headers: [string, string][] = [];
  // Each chunk with its offset from the headers (restarted there: a redirect's or 1xx's headers come first).
  let chunks = timedChunks();
  const done = () => capture.response({ status, headers, ...chunks.result() });
  const wrapped: DispatchHandler = Object.create(handler as object) as DispatchHandler;
  if (isNewStyleHandler(handler)) {
    wrapped.onResponseStart = (controller, statusCode, responseHeaders, message) => {
      status = statusCode;
      chunks = timedChunks();
      headers = Object.entries(responseHeaders).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]);
      return handler.onResponseStart?.(controller, statusCode, responseHeaders, message);
    };
    wrapped.onResponseData = (controller, chunk) => (chunks.add(chunk), handler.onResponseData?.(controller, chunk));
    wrapped.onResponseEnd = (controller, trailers) => (done(), handler.onResponseEnd?.(controller, trailers));
    wrapped.onResponseError = (controller, error) => (capture.failed(), handler.onResponseError?.(controller, error));
    return wrapped;
  }
  wrapped.onHeaders = (statusCode, rawHeaders, resume, message) => {
    status = statusCode;
    chunks = timedChunks();
    headers = [];
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) headers.push([String(rawHeaders[i]), String(rawHeaders[i + 1])]);
    return handler.onHeaders?.(statusCode, rawHeaders, resume, message);
  };
  wrapped.onData = (chunk) => (chunks.add(chunk), handler.onData?.(chunk));
  wrapped.onComplete = (trailers) => (done(), handler.onComplete?.(trailers));
  wrapped.onError = (error) => (capture.failed(), handler.onError?.(error));
  return wrapped;
}

/** Report an error thrown while answering to the caller's handler, in its own shape. */
function failHandler(handler: DispatchHandler, error: unknown): void {
  const failure = error instanceof Error ? error : new Error(String(error));
  if (isNewStyleHandler(handler)) handler.onResponseError?.(noopController, failure);
  else handler.onError?.(failure);
}

const noopController = { aborted: false, paused: false, reason: null, abort() {}, pause() {}, resume() {} };

/** A dispatch header list with the current test ID added (header and W3C baggage). */
function withTestIdHeaders(raw: unknown): string[] {
  const headers = headersFromDispatch(raw);
  const testId = headers.get(TEST_ID_HEADER) ?? tryGetTestId();
  if (testId !== undefined) addTestIdHeaders(testId, (name) => headers.get(name), (name, value) => headers.set(name, value));
  return [...headers].flat();
}
