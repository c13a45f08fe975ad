import { parsedUrl } from './parsed-url.js';

/** The options undici passes to `Dispatcher#dispatch`, as far as the harness reads them. */
export interface DispatchOptions {
  origin?: string | URL;
  path: string;
  method: string;
  headers?: unknown;
  body?: unknown;
  upgrade?: string | null;
  [key: string]: unknown;
}

/**
 * The URL of a dispatched call: its origin and its path joined as undici sends them, so a path
 * such as `//other.test/x` stays a path on the call's own host, as on the wire.
 */
export function urlOfDispatch({ origin, path }: DispatchOptions): URL {
  if (typeof origin === 'string' && path.startsWith('/') && !origin.endsWith('/')) return parsedUrl(origin + path);
  return new URL(path, origin);
}

/** Headers as undici's dispatch options carry them: a record, a flat `[name, value, …]` list, pairs, or nothing. */
export type DispatchHeaders = unknown;

/** True when dispatch headers hold no header at all. */
export function hasNoDispatchHeaders(raw: DispatchHeaders): boolean {
  if (raw === null || raw === undefined) return true;
  if (Array.isArray(raw)) return raw.length === 0;
  if (typeof raw !== 'object' || Symbol.iterator in raw) return false;
  for (const _name in raw) return false;
  return true;
}

/** HTTP whitespace around a header value, which `Headers` strips. */
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * A header's value in undici's record form (what `fetch` dispatches: `{ Name: value }`, values
 * maybe arrays) as `Headers#get` would give it, without building `Headers`; `undefined` for the
 * other forms, which the caller reads through `headersFromDispatch`.
 */
export function recordHeaderValue(raw: DispatchHeaders, lowerName: string): string | null | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || Symbol.iterator in raw) return undefined;
  let found: string | null = null;
  for (const name in raw as Record<string, unknown>) {
    if (name.length !== lowerName.length || name.toLowerCase() !== lowerName) continue;
    const value = (raw as Record<string, unknown>)[name];
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = trimHeaderValue(String(item));
      found = found === null ? text : `${found}, ${text}`;
    }
  }
  return found;
}

/**
 * The headers of undici's record form as name/value pairs: lower-case names, values trimmed as
 * `Headers` trims them, a list value as one pair per item, in the order given — not sorted or
 * merged (see `OutgoingCall.headerEntries`); `undefined` for the other forms.
 */
export function recordHeaderEntries(raw: DispatchHeaders): [string, string][] | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || Symbol.iterator in raw) return undefined;
  const entries: [string, string][] = [];
  for (const name in raw as Record<string, unknown>) {
    const value = (raw as Record<string, unknown>)[name];
    if (value === undefined || value === null) continue;
    const lower = name.toLowerCase();
    if (typeof value === 'string') entries.push([lower, trimHeaderValue(value)]);
    else for (const item of Array.isArray(value) ? value : [value]) entries.push([lower, trimHeaderValue(String(item))]);
  }
  return entries;
}

/** A header value without the HTTP whitespace around it, as `Headers` keeps it (the regex only when there is some). */
function trimHeaderValue(text: string): string {
  return text.length > 0 && (text.charCodeAt(0) <= 32 || text.charCodeAt(text.length - 1) <= 32) ? text.replace(EDGE_WHITESPACE, '') : text;
}

/**
 * A Fetch `Headers` from undici's header forms: a record (values may be arrays), a flat
 * `[name, value, name, value]` array, or an iterable of pairs.
 */
export function headersFromDispatch(raw: DispatchHeaders): Headers {
  const headers = new Headers();
  if (raw === null || raw === undefined) return headers;
  const add = (name: unknown, value: unknown) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) for (const item of value) headers.append(String(name), String(item));
    else headers.append(String(name), String(value));
  };
  if (Array.isArray(raw)) {
    if (raw.length > 0 && Array.isArray(raw[0])) for (const pair of raw as unknown[][]) add(pair[0], pair[1]);
    else for (let i = 0; i + 1 < raw.length; i += 2) add(raw[i], raw[i + 1]);
  } else if (typeof raw === 'object' && Symbol.iterator in raw) {
    for (const [name, value] of raw as Iterable<[unknown, unknown]>) add(name, value);
  } else if (typeof raw === 'object') {
    for (const name of Object.keys(raw)) add(name, (raw as Record<string, unknown>)[name]);
  }
  return headers;
}

/** A dispatch body's bytes: strings, buffers, blobs and form data, Node and web streams, async iterables. */
export async function readDispatchBody(body: unknown): Promise<Uint8Array | undefined> {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof Blob || body instanceof FormData || body instanceof URLSearchParams) return new Uint8Array(await new Response(body).arrayBuffer());
  if (typeof body === 'object' && (Symbol.asyncIterator in body || Symbol.iterator in body)) {
    const chunks: Uint8Array[] = [];
    for await (const chunk of body as AsyncIterable<unknown>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array));
    return Buffer.concat(chunks);
  }
  if (typeof (body as ReadableStream).getReader === 'function') return new Uint8Array(await new Response(body as ReadableStream).arrayBuffer());
  throw new TypeError(`scenario-harness cannot read a request body of type ${Object.prototype.toString.call(body)}`);
}

/** The content type undici adds for a body that carries its own (form data, blobs, search params). */
export function impliedContentType(body: unknown): string | undefined {
  if (body instanceof URLSearchParams) return 'application/x-www-form-urlencoded;charset=UTF-8';
  if (body instanceof Blob && body.type !== '') return body.type;
  return undefined;
}
