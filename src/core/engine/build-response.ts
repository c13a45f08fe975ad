import type { CompiledResponse } from './compile-mock.js';
import type { TemplateContext } from './template.js';

/**
 * A header value from a filled-in template. Templates copy request data (`{{params.name}}`,
 * `{{body.note}}`), which may hold line breaks or characters above U+00FF that `Headers` refuses:
 * control characters become spaces and wider characters are percent-encoded (UTF-8).
 */
function toHeaderValue(value: unknown): string {
  let out = '';
  for (const char of String(value)) {
    const code = char.codePointAt(0)!;
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) out += ' ';
    else if (code <= 0xff) out += char;
    else out += code >= 0xd800 && code <= 0xdfff ? '%EF%BF%BD' : encodeURIComponent(char); // a lone surrogate becomes U+FFFD
  }
  return out;
}

/** The Fetch `Response` for a mock's answer, with templates filled in from the call. */
export function buildResponse(response: CompiledResponse, context: TemplateContext): Response {
  const headers = new Headers();
  for (const [name, value] of response.headers) headers.set(name, toHeaderValue(value.evaluate(context)));
  const body = response.body?.evaluate(context);
  if (body === undefined || body === null) return new Response(null, { status: response.status, headers });
  if (typeof body === 'string') {
    if (!headers.has('content-type')) headers.set('content-type', 'text/plain; charset=utf-8');
    return new Response(body, { status: response.status, headers });
  }
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(body), { status: response.status, headers });
}
