import type { ParsedBody } from './parse-request-body.js';

/** What a file part of a multipart body looks like in the parsed view; its bytes are not kept. */
export interface FilePart {
  filename: string;
  /** The part's own `Content-Type`; a part that sends none reads as `text/plain` (RFC 7578's default). */
  contentType: string;
  /** In bytes. */
  size: number;
}

/** Sets `key` as an own property, so a field named `__proto__` is data like any other. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A `multipart/form-data` body as fields by name: text fields as strings, file parts as
 * `{ filename, contentType, size }`, several parts with one name as an array in body order.
 * Field names are taken as they are (`a[b]` is not nested). A body that does not parse
 * (no boundary, cut off, not multipart at all) is kept as text, like malformed JSON.
 * @note The Fetch API's own `formData()` parses it (undici's parser, in Node itself): nothing
 * hand-written, nothing to load.
 */
export async function parseMultipartBody(contentType: string, raw: Uint8Array | string): Promise<ParsedBody> {
  let form: FormData;
  try {
    // A Uint8Array is a valid body; TypeScript's DOM types only want one over a plain ArrayBuffer.
    form = await new Response(raw as BodyInit, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return { format: 'text', value: typeof raw === 'string' ? raw : new TextDecoder().decode(raw) };
  }
  const fields: Record<string, unknown> = {};
  for (const [name, entry] of form) {
    const value: string | FilePart = typeof entry === 'string' ? entry : { filename: entry.name, contentType: entry.type, size: entry.size };
    if (!Object.hasOwn(fields, name)) define(fields, name, value);
    else if (Array.isArray(fields[name])) (fields[name] as unknown[]).push(value);
    else define(fields, name, [fields[name], value]);
  }
  return { format: 'multipart', value: fields };
}
