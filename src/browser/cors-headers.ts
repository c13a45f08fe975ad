/**
 * CORS as a real API answers a page on another origin: the page's own origin allowed (never `*`,
 * so credentialed calls work too), credentials allowed.
 * @see https://fetch.spec.whatwg.org/#http-cors-protocol
 */

/** True for a CORS preflight: an `OPTIONS` that announces the call to come. */
export function isPreflight(method: string, headers: Headers): boolean {
  return method === 'OPTIONS' && headers.has('origin') && headers.has('access-control-request-method');
}

/** The headers of a preflight's 204: the announced method and headers allowed for the page's origin. */
export function preflightHeaders(request: Headers): Record<string, string> {
  const headers: Record<string, string> = {
    'access-control-allow-origin': request.get('origin')!,
    'access-control-allow-credentials': 'true',
    'access-control-allow-methods': request.get('access-control-request-method')!,
    vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  };
  const asked = request.get('access-control-request-headers');
  if (asked !== null && asked !== '') headers['access-control-allow-headers'] = asked;
  // @note Chrome's Private Network Access asks this of a public page calling a local address.
  if (request.get('access-control-request-private-network') === 'true') headers['access-control-allow-private-network'] = 'true';
  return headers;
}

/**
 * A mock's headers, with the CORS headers a page needs to read the answer. A call without an
 * `Origin` (same origin, or no CORS) gets none; a mock that sets `access-control-allow-origin`
 * itself keeps its CORS as it wrote it (a test of a misconfigured API stays possible).
 */
export function withCors(reply: Readonly<Record<string, string>>, request: Headers): Record<string, string> {
  const origin = request.get('origin');
  if (origin === null || 'access-control-allow-origin' in reply) return { ...reply };
  const exposed = Object.keys(reply).filter((name) => name !== 'set-cookie');
  return {
    ...reply,
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    // Every header the mock sets is readable by the page, as `response.headers.get()` expects.
    ...(exposed.length === 0 ? {} : { 'access-control-expose-headers': exposed.join(', ') }),
    vary: reply.vary === undefined ? 'Origin' : `${reply.vary}, Origin`,
  };
}
