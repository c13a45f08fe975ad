import type { MockMatch, MockResponse } from '../core/types.js';
import { detectSecretValues, type DetectOptions } from './detect-secret-values.js';
import { parseContentType } from '../core/engine/body/parse-content-type.js';
import { isPlainObject } from './plain-data.js';
import { isRecordedStream, joinedChunkText, streamedJsonValues } from './recorded-stream.js';
import type { SecretRegistry } from './secret-registry.js';

/** One call as the converter read it, before known secret values are scrubbed from it. */
export interface CallTexts {
  url: URL;
  /** Not recorded, but a credential sent under an ordinary name can come back in the answer. */
  requestHeaders: readonly [string, string][];
  requestBody: Uint8Array | string | undefined;
  match: MockMatch;
  response: MockResponse;
}

function bodyText(body: Uint8Array | string | undefined): { text: string; binary: boolean } | undefined {
  if (body === undefined || typeof body === 'string') return body === undefined ? undefined : { text: body, binary: false };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), binary: false };
  } catch {
    return { text: Buffer.from(body).toString('latin1'), binary: true };
  }
}

/** Every string or number leaf under `value`, with the key it is under (an array item: its array's key). */
function namedLeaves(value: unknown, name: string | undefined, out: [string | undefined, string][] = []): [string | undefined, string][] {
  if (typeof value === 'string' || typeof value === 'number') out.push([name, String(value)]);
  else if (Array.isArray(value)) for (const item of value) namedLeaves(item, name, out);
  else if (isPlainObject(value)) for (const [key, item] of Object.entries(value)) namedLeaves(item, key, out);
  return out;
}

/**
 * Remember in `secrets` every value of one call that is a secret by its shape (see
 * `detectSecretValues`), wherever it is: the URL (path segments, query, fragment), request
 * headers and body, the match, the response headers, body and events. The converter's second
 * pass then cuts each one out of everything it writes, as it does for values redacted by name:
 * a `[redacted]` in a response, a criterion removed from a match, a `*` in a URL path.
 */
export function rememberSecretValues(call: CallTexts, secrets: SecretRegistry): void {
  const scan = (text: string, options: DetectOptions) => {
    for (const { value, kind, bare } of detectSecretValues(text, options)) {
      const source = `${kind}, found by its value`;
      secrets.add(value, source);
      if (bare !== undefined) secrets.add(bare, source);
    }
  };
  const { url, response } = call;
  scan(url.href, {});
  // As written: the path is scrubbed as it is, percent-escapes and all.
  for (const segment of url.pathname.split('/')) scan(segment, { whole: true });
  for (const [name, value] of url.searchParams) scan(value, { whole: true, name });
  for (const [name, value] of new URLSearchParams(url.hash.slice(1))) scan(value, { whole: true, name });
  for (const [name, value] of call.requestHeaders) scan(value, { whole: true, name });
  const body = bodyText(call.requestBody);
  if (body !== undefined) scan(body.text, body.binary ? { binary: true } : { whole: true });
  for (const [name, text] of namedLeaves(call.match, undefined)) scan(text, { whole: true, name });
  for (const [name, value] of Object.entries(response.headers ?? {})) scan(value, { whole: true, name });
  for (const [name, text] of namedLeaves(response.body, undefined)) scan(text, { whole: true, name });
  for (const [name, text] of namedLeaves(response.stream?.events, undefined)) scan(text, { whole: true, name });
  if (isRecordedStream(response.stream)) {
    // The chunks joined, where a value split between two chunks is whole; and each value of the JSON they carry.
    const text = joinedChunkText(response.stream);
    scan(text, {});
    const mediaType = parseContentType(response.headers?.['content-type']).mediaType;
    for (const [name, leaf] of namedLeaves(streamedJsonValues(text, mediaType), undefined)) scan(leaf, { whole: true, name });
  }
}
