import type { MockResponse } from '../core/types.js';
import { keepTemplatesLiteral } from '../record/keep-templates-literal.js';
import type { BodyKind } from '../record/response-draft.js';

type Json = Record<string, unknown>;
/** openapi-sampler's `sample`, passed in: it is loaded by the importer only. */
export type Sample = (schema: object, options: object, document: object) => unknown;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A media type of a response or request body, and its object (`schema`, `example`, `examples`). */
export interface Media {
  type: string;
  media: Json;
}

function isJson(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json') || type.endsWith('/json');
}

/** JSON first (`application/json`, then any `…+json`), else the first media type listed. */
export function chooseMedia(content: unknown): Media | undefined {
  if (!isRecord(content)) return undefined;
  const types = Object.keys(content);
  const type = types.find((t) => t.split(';')[0] === 'application/json') ?? types.find((t) => isJson(t.split(';')[0]!)) ?? types[0];
  return type === undefined || !isRecord(content[type]) ? undefined : { type, media: content[type] };
}

/** The named examples of a media object that carry a value (`externalValue`-only ones cannot be inlined). */
export function namedExamples(media: Json | undefined): [string, Json][] {
  if (media === undefined || !isRecord(media.examples)) return [];
  return Object.entries(media.examples).filter((entry): entry is [string, Json] => isRecord(entry[1]) && 'value' in entry[1]);
}

/** Where an operation's example came from, for the summary. */
export type ExampleSource = 'example' | 'examples' | 'schema example' | 'sample' | 'none';

/**
 * The preferred example of a media object: `example`, else the first of `examples`, else the
 * schema's `example` (or first of 3.1 `examples`), else a deterministic sample of the schema
 * (openapi-sampler: first `oneOf` branch, `example`/`default`/`enum[0]` where given).
 */
export function preferredExample(media: Json | undefined, document: object, sample: Sample, notes: string[]): { value: unknown; source: ExampleSource } {
  if (media === undefined) return { value: undefined, source: 'none' };
  if (media.example !== undefined) return { value: media.example, source: 'example' };
  const named = namedExamples(media);
  if (named.length > 0) return { value: named[0]![1].value, source: 'examples' };
  const schema = media.schema;
  if (!isRecord(schema)) return { value: undefined, source: 'none' };
  if (schema.example !== undefined) return { value: schema.example, source: 'schema example' };
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return { value: schema.examples[0], source: 'schema example' };
  return { value: safeSample(sample, schema, document, notes), source: 'sample' };
}

/** A sample of a schema, or `undefined` (with a note) when openapi-sampler cannot make one. */
export function safeSample(sample: Sample, schema: object, document: object, notes: string[]): unknown {
  try {
    return sample(schema, { skipWriteOnly: true, quiet: true }, document);
  } catch (error) {
    notes.push(`no example, and the schema could not be sampled (${(error as Error).message}); the mock answers with no body`);
    return undefined;
  }
}

/** An OpenAPI 3 response's documented headers that have an example value. */
export function exampleHeaders(headers: unknown): [string, string][] {
  if (!isRecord(headers)) return [];
  const out: [string, string][] = [];
  for (const [name, header] of Object.entries(headers)) {
    if (!isRecord(header) || ['content-type', 'content-length', 'transfer-encoding'].includes(name.toLowerCase())) continue;
    const schema = isRecord(header.schema) ? header.schema : {};
    const value = header.example ?? header['x-example'] ?? schema.example;
    if (value !== undefined) out.push([name.toLowerCase(), typeof value === 'string' ? value : JSON.stringify(value)]);
  }
  return out.sort(([a], [b]) => (a < b ? -1 : 1));
}

const NO_BODY = new Set([204, 205, 304]);

/**
 * A `MockResponse` from a status, a media type and an example value: JSON media as `body`
 * (a string that holds JSON text is parsed: authors often write examples that way), text media
 * as text, other media (images, PDFs) from a string example as `bodyBase64` (a sample of a
 * binary schema is no bytes at all: no body); the content type in
 * `headers` unless it is plain `application/json`.
 */
export function exampleResponse(status: number, type: string | undefined, value: unknown, headers: [string, string][], notes: string[], sampled = false): MockResponse {
  const out: Record<string, string> = Object.fromEntries(headers);
  const mediaType = type?.split(';')[0]?.trim().toLowerCase();
  const withHeaders = (): MockResponse => {
    const sorted = Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1));
    return sorted.length > 0 ? { status, headers: Object.fromEntries(sorted) } : { status };
  };
  if (value === undefined || NO_BODY.has(status) || mediaType === undefined) return withHeaders();
  if (mediaType !== 'application/json') out['content-type'] = type!;
  const response = withHeaders();
  let kind: BodyKind;
  if (isJson(mediaType)) {
    let body = value;
    if (typeof value === 'string') {
      try {
        const parsed = JSON.parse(value) as unknown;
        body = typeof parsed === 'object' && parsed !== null ? parsed : JSON.stringify(value);
      } catch {
        body = JSON.stringify(value);
      }
    } else if (typeof value !== 'object' || value === null) {
      body = JSON.stringify(value);
    }
    response.body = body;
    kind = typeof body === 'string' ? 'text' : 'json';
    // JSON text (a string or number example) is sent as it is: say it is JSON, or it goes out as text/plain.
    if (kind === 'text') response.headers = { ...response.headers, 'content-type': type! };
  } else if (mediaType.startsWith('text/') || mediaType.endsWith('+xml') || mediaType === 'application/xml') {
    response.body = typeof value === 'string' ? value : JSON.stringify(value);
    kind = 'text';
  } else if (typeof value === 'string' && !sampled) {
    response.bodyBase64 = Buffer.from(value, 'utf8').toString('base64');
    kind = 'binary';
  } else {
    notes.push(`${type}: no example bytes to send; the mock answers with no body (set "bodyBase64" by hand)`);
    kind = 'none';
  }
  return keepTemplatesLiteral(response, kind, notes);
}
