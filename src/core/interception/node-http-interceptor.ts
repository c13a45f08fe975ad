import { captureResponseCopy, type CaptureHandle } from '../recording/capture.js';
import { runRecordedCall } from '../recording/recorded-call-context.js';
import { socketNotCarried, type CallOutcome } from './call-outcome.js';
import { importLazily } from '../import-lazily.js';
import { interceptionFailed } from './interception-failed.js';
import { loadClientRequestInterceptor } from './load-interceptor.js';
import { isConnectionFault, replyToResponse, simulatedNetworkError, wait } from './mock-reply.js';
import { callFromRequest, type OutgoingCall } from './outgoing-call.js';

export interface NodeHttpInterceptorOptions {
  decide(call: OutgoingCall): Promise<CallOutcome>;
}

/** What the interception library tells a `'request'` listener. */
interface InterceptedRequest {
  request: Request;
  /** The object that issued the request: here always the app's `http.ClientRequest`. */
  initiator: unknown;
  controller: { respondWith(response: Response): void; errorWith(reason?: unknown): void; passthrough(): Promise<void> };
}

/** What the harness uses of the app's `http.ClientRequest`, the initiator of an intercepted call. */
interface ClientRequestEvents {
  emit?(event: string): boolean;
  once?(event: string, listener: () => void): unknown;
}

/** The part of the library's interceptor that the recorded responses listen on. */
interface ResponseEvents {
  on(event: string, listener: (event: never) => void): unknown;
  removeListener(event: string, listener: (event: never) => void): unknown;
}

/**
 * The upstream's responses to the calls a test records, handed to their captures.
 * @note Listened for only while a recorded call is in flight. With a `response` listener the
 * library holds back every passed-through response until the listeners settle, and copies every
 * mocked one; it also emitted a refused connection's close before its error, so an undici
 * `Client` the app built saw "closed" instead of the harness's reason.
 */
function recordedResponses(interceptor: ResponseEvents) {
  const captures = new Map<Request, CaptureHandle>();
  const settle = (request: Request) => {
    captures.delete(request);
    if (captures.size > 0) return;
    interceptor.removeListener('response', onResponse);
    interceptor.removeListener('unhandledException', onException);
  };
  // A recorded call's response, as the upstream sent it (the library hands over a copy, read chunk by chunk as it arrives).
  const onResponse = ({ request, response }: { request: Request; response: Response }) => {
    const capture = captures.get(request);
    if (capture === undefined) return;
    settle(request);
    captureResponseCopy(response, capture);
  };
  const onException = ({ request }: { request: Request }) => {
    const capture = captures.get(request);
    if (capture === undefined) return;
    settle(request);
    capture.failed();
  };
  return {
    /** Hand the upstream's response to `request` to `capture`; a request that closes without one fails it. */
    expect(request: Request, capture: CaptureHandle, clientRequest: ClientRequestEvents | undefined) {
      if (captures.size === 0) {
        interceptor.on('response', onResponse);
        interceptor.on('unhandledException', onException);
      }
      captures.set(request, capture);
      clientRequest?.once?.('close', () => onException({ request }));
    },
  };
}

/**
 * `node:http` and `node:https` (axios, got, superagent, node-fetch, the AWS and Stripe SDKs)
 * through @mswjs/interceptors' ClientRequest interceptor.
 * @returns the applied interceptor (its `readyState` says whether it patched) with its `dispose`.
 */
export async function installNodeHttpInterceptor({ decide }: NodeHttpInterceptorOptions) {
  // Loaded on first start only: with `enabled: false` nothing of the library is loaded (SPEC §5).
  const { ClientRequestInterceptor } = await importLazily(
    loadClientRequestInterceptor,
    '@mswjs/interceptors',
    (reason, remedy, cause) => interceptionFailed(`the interception library failed to load: ${reason}`, remedy, cause),
  );
  const interceptor = new ClientRequestInterceptor();
  const recorded = recordedResponses(interceptor);
  interceptor.apply();
  stopRecordingRawHeaders();
  interceptor.on('request', async ({ request, initiator, controller }: InterceptedRequest) => {
    const clientRequest = initiator as ClientRequestEvents | undefined;
    // @note A client that sent `Expect: 100-continue` (the AWS SDK on uploads over ~1 MiB)
    // holds its body back until the server says "continue"; no server is there to say it, so
    // the client would stall until its own timeout. Say it on the server's behalf.
    if (request.headers.get('expect')?.toLowerCase() === '100-continue') {
      process.nextTick(() => clientRequest?.emit?.('continue'));
    }
    const call = callFromRequest(request);
    const outcome = await decide(call);
    if (outcome.kind === 'pass') {
      if (outcome.capture === undefined) return;
      recorded.expect(request, outcome.capture, clientRequest);
      // @note Passed through here rather than by the library after this listener: the library's
      // own pass-through runs outside this call's async context, and the real socket opens
      // synchronously inside `passthrough()`, where the socket guard must see that this connection
      // carries a recorded call (recorded-call-context.ts).
      return runRecordedCall(() => controller.passthrough());
    }
    if (outcome.kind === 'fail') return controller.errorWith(outcome.error);
    // The upgrades the bridge can take never get here (node-http-upgrades.ts); this one came through an agent of the app's.
    if (outcome.kind === 'socket') return controller.errorWith(socketNotCarried(call, 'a client with an agent of its own (leave the agent out, or list the host in allowHosts)'));
    const { reply } = outcome;
    if (reply.delay > 0) await wait(reply.delay);
    if (isConnectionFault(reply.fault)) return controller.errorWith(simulatedNetworkError(call.method, call.url, reply.fault));
    if (reply.fault === 'timeout') {
      // Never answered; this listener ends when the client gives up and closes the request.
      return new Promise<void>((resolve) => clientRequest?.once?.('close', resolve));
    }
    controller.respondWith(replyToResponse(reply, call.method, call.url));
  });
  return interceptor;
}

/**
 * Undo the interception library's replacement of the global `Headers`, `Request` and `Response`
 * with proxies that record raw header casing.
 * @note Those proxies sit in front of every Headers/Request/Response the whole app creates and
 * cost ~11 µs on each mocked fetch here (a bare patched fetch: 15.6 µs without them, 27 µs with
 * them). Their only use is to keep header-name casing on node:http calls; without them header
 * names go out in lower case, which HTTP treats the same. The library keeps its restore function
 * on `Headers` under a private symbol; it is found by its description, and nothing happens if a
 * future version changes that.
 * @see https://github.com/mswjs/interceptors/blob/main/src/interceptors/ClientRequest/utils/recordRawHeaders.ts
 */
function stopRecordingRawHeaders(): void {
  const key = Object.getOwnPropertySymbols(Headers).find((symbol) => symbol.description === 'kRestorePatches');
  const restore = key === undefined ? undefined : (Headers as unknown as Record<symbol, unknown>)[key];
  if (typeof restore === 'function') restore();
}
