import type { CompiledResponse } from './compile-mock.js';
import type { TemplateContext } from './template.js';

/** The Fetch `Response` for a mock's answer, with templates filled in from the call. */
export function buildResponse(response: CompiledResponse, context: TemplateContext): Response {
  const headers = new Headers();
  for (const [name, value] of response.headers) headers.set(name, String(value.evaluate(context)));
  const body = response.body?.evaluate(context);
  if (body === undefined || body === null) return new Response(null, { status: response.status, headers });
  if (typeof body === 'string') {
    if (!headers.has('content-type')) headers.set('content-type', 'text/plain; charset=utf-8');
    return new Response(body, { status: response.status, headers });
  }
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(body), { status: response.status, headers });
}
