import type { CallOutcome } from './call-outcome.js';
import { replyToResponse, simulatedNetworkError, wait } from './mock-reply.js';
import { callFromRequest, type OutgoingCall } from './outgoing-call.js';

export interface NodeHttpInterceptorOptions {
  decide(call: OutgoingCall): Promise<CallOutcome>;
}

/** What the interception library tells a `'request'` listener. */
interface InterceptedRequest {
  request: Request;
  controller: { respondWith(response: Response): void; errorWith(reason?: unknown): void };
}

/**
 * `node:http` and `node:https` (axios, got, superagent, node-fetch, the AWS and Stripe SDKs)
 * through @mswjs/interceptors' ClientRequest interceptor.
 * @returns the applied interceptor (its `readyState` says whether it patched) with its `dispose`.
 */
export async function installNodeHttpInterceptor({ decide }: NodeHttpInterceptorOptions) {
  const [{ ClientRequestInterceptor }, { getRawRequest }] = await Promise.all([import('@mswjs/interceptors/ClientRequest'), import('@mswjs/interceptors')]);
  const interceptor = new ClientRequestInterceptor();
  interceptor.apply();
  interceptor.on('request', async ({ request, controller }: InterceptedRequest) => {
    // @note A client that sent `Expect: 100-continue` (the AWS SDK on uploads over ~1 MiB)
    // holds its body back until the server says "continue"; no server is there to say it, so
    // the client would stall until its own timeout. Say it on the server's behalf.
    if (request.headers.get('expect')?.toLowerCase() === '100-continue') {
      const raw = getRawRequest(request) as { emit?(event: string): boolean } | undefined;
      process.nextTick(() => raw?.emit?.('continue'));
    }
    const call = callFromRequest(request);
    const outcome = await decide(call);
    if (outcome.kind === 'pass') return;
    if (outcome.kind === 'fail') return controller.errorWith(outcome.error);
    const { reply } = outcome;
    if (reply.delay > 0) await wait(reply.delay);
    if (reply.fault === 'network') return controller.errorWith(simulatedNetworkError(call.method, call.url));
    controller.respondWith(replyToResponse(reply, call.method, call.url));
  });
  return interceptor;
}
