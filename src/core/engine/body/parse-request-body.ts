import { parseContentType } from './parse-content-type.js';
import { parseFormBody } from './parse-form-body.js';
import { parseJsonBody } from './parse-json-body.js';
import { parseMultipartBody } from './parse-multipart-body.js';

/**
 * Which parser read a body: `json`, `form` (urlencoded), `multipart`, or `text` for anything
 * else (XML, plain text, malformed JSON or multipart).
 */
export type BodyFormat = 'json' | 'form' | 'multipart' | 'text';

/** A request body as `match.body` and `{{body.x}}` templates see it. */
export interface ParsedBody {
  format: BodyFormat;
  /** JSON value, fields object, or the text itself. */
  value: unknown;
  /** Set when the body parsed as JSON but nests deeper than `MAX_JSON_BODY_DEPTH`, so it is kept as its text. */
  tooDeep?: true;
}

function decode(raw: Uint8Array | string, charset: string | undefined): string {
  if (typeof raw === 'string') return raw;
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    try {
      return new TextDecoder(charset).decode(raw);
    } catch {
      // A label TextDecoder does not know: read it as UTF-8, as request.text() would.
    }
  }
  return new TextDecoder().decode(raw);
}

/** A request body as text, decoded by the charset its content type names (UTF-8 otherwise): what a top-level string matcher on `match.body` tests. */
export function requestBodyText(contentTypeHeader: string | null | undefined, raw: Uint8Array | string): string {
  return decode(raw, parseContentType(contentTypeHeader).charset);
}

/**
 * Parse a request body by its content type into the one view every matcher and template
 * reads: form and multipart bodies by their own rules, anything else as JSON when it parses,
 * else as text. Takes the raw bytes (or text) and the `Content-Type` header, so any
 * interception layer can call it without building a Fetch Request.
 * Heavy parsers load on first use (qs with the first form body).
 * @returns `undefined` for an empty body.
 * @throws RangeError when a form body passes the limits in `FORM_LIMITS`.
 */
export async function parseRequestBody(contentTypeHeader: string | null | undefined, raw: Uint8Array | string): Promise<ParsedBody | undefined> {
  if (raw.length === 0) return undefined;
  const { mediaType, charset } = parseContentType(contentTypeHeader);
  if (mediaType === 'multipart/form-data') return parseMultipartBody(contentTypeHeader!, raw);
  if (mediaType === 'application/x-www-form-urlencoded') {
    const latin1 = charset === 'iso-8859-1' || charset === 'latin1';
    return parseFormBody(decode(raw, latin1 ? 'latin1' : undefined), latin1 ? 'iso-8859-1' : 'utf-8');
  }
  return parseJsonBody(decode(raw, charset));
}
