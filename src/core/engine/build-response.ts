import type { MockReply } from '../interception/mock-reply.js';
import { buildReplyStream } from './stream-body.js';
import type { CompiledResponse } from './compile-mock.js';
import { isConstant, type TemplateContext } from './template.js';
import { emptyRecord } from '../empty-record.js';
import { renderLlm } from './llm/render-llm.js';

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

/** A response's body text and headers, as `new Response()` takes them. */
interface ResponseParts {
  text: string | null;
  headers: Record<string, string>;
}

/** Body text and headers from evaluated values; `content-type` follows the body's type unless set. */
function toResponseParts(headerValues: readonly (readonly [string, unknown])[], body: unknown): ResponseParts {
  // A record, not a Headers object: Response copies it once, and no Headers#set runs per name.
  // Inherits nothing, so a header named "__proto__" stays an ordinary key.
  const headers = emptyRecord<string>();
  for (const [name, value] of headerValues) headers[name.toLowerCase()] = toHeaderValue(value);
  if (body === undefined || body === null) return { text: null, headers };
  const isText = typeof body === 'string';
  headers['content-type'] ??= isText ? 'text/plain; charset=utf-8' : 'application/json';
  return { text: isText ? body : JSON.stringify(body), headers };
}

/**
 * The body text and headers of a response without templates, built once at harness creation
 * (or `undefined` when a template makes them depend on the call).
 */
export function precomputeResponseParts(response: Pick<CompiledResponse, 'headers' | 'body'>): ResponseParts | undefined {
  if (!response.headers.every(([, value]) => isConstant(value)) || (response.body !== undefined && !isConstant(response.body))) return undefined;
  return toResponseParts(
    response.headers.map(([name, value]) => [name, value.evaluate(NO_CONTEXT)] as const),
    response.body?.evaluate(NO_CONTEXT),
  );
}

/** Constants ignore the context they are evaluated in. */
const NO_CONTEXT = undefined as unknown as TemplateContext;

/** Headers and body of a reply from its parts: a binary or streamed body brings its own default content type. */
function toReply(response: CompiledResponse, parts: ResponseParts, context: TemplateContext): MockReply {
  let body: string | Uint8Array | null = parts.text;
  let stream: MockReply['stream'];
  let llm: MockReply['llm'];
  if (response.binary !== undefined) {
    parts.headers['content-type'] ??= 'application/octet-stream';
    body = response.binary;
  } else if (response.stream !== undefined) {
    parts.headers['content-type'] ??= response.stream.contentType;
    stream = buildReplyStream(response.stream, context);
  } else if (response.llm !== undefined) {
    const rendered = renderLlm(response.llm, context);
    parts.headers['content-type'] ??= rendered.contentType;
    body = rendered.text;
    stream = rendered.stream;
    llm = rendered.answer;
  }
  if (response.fault === 'malformed') {
    // Half of the body, then the connection drops: the client gets a truncated, unparseable body.
    const bytes = body === null ? new Uint8Array(0) : typeof body === 'string' ? new TextEncoder().encode(body) : body;
    stream = { chunks: [bytes.subarray(0, Math.floor(bytes.byteLength / 2))], intervalMs: 0, failAfter: 1 };
    body = null;
  }
  const reply: MockReply = { status: response.status, headers: parts.headers, body, stream, delay: response.delay, fault: response.fault };
  // Only an `llm` reply has the field: every other keeps the shape it always had.
  if (llm !== undefined && response.fault === undefined) reply.llm = llm;
  return reply;
}

/** A mock's answer as plain data for the interception layers, with templates filled in from the call. */
export function buildReply(response: CompiledResponse, context: TemplateContext): MockReply {
  if (response.fixedReply !== undefined) return response.fixedReply;
  const parts =
    response.fixed !== undefined
      ? { text: response.fixed.text, headers: { ...response.fixed.headers } }
      : toResponseParts(
          response.headers.map(([name, value]) => [name, value.evaluate(context)] as const),
          response.body?.evaluate(context),
        );
  return toReply(response, parts, context);
}

/** The reply of a response without templates, built once at creation (`undefined` when templates make it vary). */
export function precomputeReply(response: Omit<CompiledResponse, 'fixedReply' | 'dynamic'>): MockReply | undefined {
  // An `llm` answer depends on the call (its streaming flag, model): never built ahead.
  if (response.fixed === undefined || response.llm !== undefined || (response.stream !== undefined && response.stream.fixed === undefined)) return undefined;
  const reply = toReply(response as CompiledResponse, { text: response.fixed.text, headers: { ...response.fixed.headers } }, NO_CONTEXT);
  Object.freeze(reply.headers);
  return Object.freeze(reply);
}
