import { BAGGAGE_TEST_ID_KEY, TEST_ID_HEADER } from '../core/constants.js';
import { capturedResponse, type CaptureHandle } from '../core/recording/capture.js';

/**
 * Response headers that no longer describe the body: fetch has decoded it, and Node frames it
 * again (chunked) for the client.
 */
const STALE_RESPONSE_HEADERS = ['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'];

/** Statuses a Response may not have a body with. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/** `baggage` without our member: the test ID is ours, not the upstream's. */
function withoutTestIdMember(baggage: string): string {
  return baggage
    .split(',')
    .filter((member) => member.slice(0, member.indexOf('=')).trim() !== BAGGAGE_TEST_ID_KEY)
    .join(',')
    .trim();
}

/**
 * Send a call no mock answered to its real upstream and return the upstream's answer, for
 * `unhandled: 'bypass' | 'warn'` (and loopback targets, which always go through).
 * The test ID is not sent on: third parties never see it. Redirects are passed back to the
 * client, as a proxy does, rather than followed here.
 */
export async function forwardCall(request: Request): Promise<Response> {
  const headers = new Headers(request.headers);
  headers.delete(TEST_ID_HEADER);
  const baggage = headers.get('baggage');
  if (baggage !== null) {
    const rest = withoutTestIdMember(baggage);
    if (rest === '') headers.delete('baggage');
    else headers.set('baggage', rest);
  }
  const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers, redirect: 'manual' };
  if (request.body !== null) {
    init.body = request.body;
    init.duplex = 'half';
  }
  const upstream = await fetch(request.url, init);
  const responseHeaders = new Headers(upstream.headers);
  for (const name of STALE_RESPONSE_HEADERS) responseHeaders.delete(name);
  const body = NULL_BODY_STATUSES.has(upstream.status) ? null : upstream.body;
  return new Response(body, { status: upstream.status, statusText: upstream.statusText, headers: responseHeaders });
}

/**
 * `forwardCall` for a recording test: the upstream's answer is also handed to the recording's
 * capture, read from a copy so that the client gets the body as it streams.
 */
export function forwardAndCapture(request: Request, capture: CaptureHandle): Promise<Response> {
  return capturedResponse(forwardCall(request), capture);
}
