import { parseContentType } from '../core/engine/body/parse-content-type.js';
import { isSecretHeaderName } from '../core/journal/redact-headers.js';
import type { MockResponse } from '../core/types.js';
import { decodeResponseBody } from './decode-response-body.js';
import { parseEventStream } from './parse-event-stream.js';
import { childPath, isPlainObject, leafTexts, parseJsonContainer, setOwn, sortedRecord } from './plain-data.js';
import type { PendingRedaction } from './redaction.js';
import { redactUrlQuery } from './redact-url-query.js';
import { decodeChunkTexts, isStreamedType, replaceAcrossChunks, streamedJsonValues, type RecordedBodyChunk } from './recorded-stream.js';
import { redactXmlText } from './redact-xml-text.js';
import { isSecretField, isSecretKey, isSecretQueryParam, REDACTED } from './secret-names.js';
import { credentialParts, type SecretRegistry } from './secret-registry.js';
import type { VolatileRules } from './volatile-names.js';

/** What building a recorded response needs to know for one conversion. */
export interface ResponseRules {
  volatile: VolatileRules;
  secretKeys: ReadonlySet<string>;
  secretHeaders: ReadonlySet<string>;
  secrets: SecretRegistry;
}

/** How a recorded body was kept (`recorded`: a stream of its chunks as they came, with their times). */
export type BodyKind = 'none' | 'json' | 'text' | 'events' | 'binary' | 'recorded';

/** One call's response as a `MockResponse`, before known secret values are scrubbed from it. */
export interface DraftResponse {
  response: MockResponse;
  kind: BodyKind;
  /** The content type the upstream sent (`''` when none). */
  mediaType: string;
}

/** Statuses that carry no body (and HEAD answers). */
const NO_BODY = new Set([204, 205, 304]);
/** Headers whose value is a URL: its secret query parameters are redacted. */
const URL_HEADERS = new Set(['location', 'content-location', 'link', 'refresh']);

function isJsonType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType === 'text/json' || mediaType.endsWith('+json');
}

function isTextType(mediaType: string): boolean {
  return (
    mediaType.startsWith('text/') ||
    mediaType.endsWith('+xml') ||
    ['application/xml', 'application/javascript', 'application/ecmascript', 'application/x-www-form-urlencoded', 'application/graphql', 'application/yaml', 'application/x-yaml', 'application/x-ndjson', 'application/ndjson', 'application/csv', 'application/sql'].includes(mediaType)
  );
}

/** UTF-8 (or the declared charset) text, or `undefined` when the bytes are not text. */
function decodeText(bytes: Uint8Array | string, charset: string | undefined): string | undefined {
  if (typeof bytes === 'string') return bytes;
  try {
    const text = new TextDecoder(charset ?? 'utf-8', { fatal: true }).decode(bytes);
    return text.includes('\u0000') ? undefined : text;
  } catch {
    return undefined;
  }
}

function toBase64(bytes: Uint8Array | string): string {
  return Buffer.from(bytes).toString('base64');
}

interface Sink {
  rules: ResponseRules;
  redactions: PendingRedaction[];
}

/**
 * A parsed JSON value with secret-looking keys replaced by `[redacted]`, secret URL query and
 * fragment values redacted, and JSON inside a string (a queue message's `payload`) redacted the
 * same way and written back as JSON.
 */
export function redactResponseValue(value: unknown, path: string, sink: Sink): unknown {
  if (typeof value === 'string') {
    const inner = parseJsonContainer(value);
    if (inner !== undefined) {
      const before = sink.redactions.length;
      const redacted = redactResponseValue(inner, `${path} (JSON in a string)`, sink);
      return sink.redactions.length === before ? value : JSON.stringify(redacted);
    }
    const url = redactUrlQuery(value, (name) => isSecretQueryParam(name, sink.rules.secretKeys));
    if (url === undefined) return value;
    url.values.forEach((secret, i) => sink.rules.secrets.add(secret, `the value of ${path} (query ${url.names[i]})`));
    sink.redactions.push({ field: path, action: 'replaced', reason: `secret-looking query parameter ${url.names.join(', ')}` });
    return url.text;
  }
  if (Array.isArray(value)) return value.map((item, i) => redactResponseValue(item, childPath(path, i), sink));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const itemPath = childPath(path, key);
    const secret = isSecretField(key, item, sink.rules.secretKeys) && item !== null && typeof item !== 'boolean' && leafTexts(item).length > 0;
    if (secret) {
      for (const text of leafTexts(item)) sink.rules.secrets.add(text, `the value of ${itemPath}`);
      sink.redactions.push({ field: itemPath, action: 'replaced', reason: 'secret-looking name' });
    }
    setOwn(out, key, secret ? REDACTED : redactResponseValue(item, itemPath, sink));
  }
  return out;
}

/** An `application/x-www-form-urlencoded` answer (OAuth token endpoints) with its secret fields redacted. */
function redactFormText(text: string, sink: Sink): string {
  const redacted = redactUrlQuery(`/?${text}`, (name) => isSecretKey(name, sink.rules.secretKeys) || isSecretQueryParam(name, sink.rules.secretKeys));
  if (redacted === undefined) return text;
  redacted.values.forEach((secret, i) => sink.rules.secrets.add(secret, `the value of response.body field ${redacted.names[i]}`));
  for (const name of redacted.names) sink.redactions.push({ field: `response.body.${name}`, action: 'replaced', reason: 'secret-looking name' });
  return redacted.text.slice(2);
}

/** An XML or SOAP answer with the text of its secret-looking elements and attributes redacted. */
function redactXmlBody(text: string, sink: Sink): string {
  const redacted = redactXmlText(text, (name) => isSecretKey(name, sink.rules.secretKeys));
  if (redacted === undefined) return text;
  redacted.values.forEach((secret, i) => sink.rules.secrets.add(secret, `the value of response.body element ${redacted.names[i]}`));
  for (const name of new Set(redacted.names)) sink.redactions.push({ field: `response.body.${name}`, action: 'replaced', reason: 'secret-looking name' });
  return redacted.text;
}

/** The JSON string a body holds when it is one (a whole body encoded twice); else `undefined`. */
function parseJsonString(text: string): string | undefined {
  if (!text.trimStart().startsWith('"')) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A body kept as text, with what names can tell in it redacted: form fields, XML elements, JSON inside a JSON string. */
function redactTextBody(text: string, mediaType: string, sink: Sink): string {
  if (mediaType === 'application/x-www-form-urlencoded') return redactFormText(text, sink);
  if (text.trimStart().startsWith('<')) return redactXmlBody(text, sink);
  const inner = parseJsonString(text);
  if (inner === undefined) return text;
  const before = sink.redactions.length;
  const redacted = redactResponseValue(inner, 'response.body', sink);
  return sink.redactions.length === before ? text : JSON.stringify(redacted);
}

/**
 * A streamed answer's recorded chunks as `stream.chunks` of `{ text, atMs }` with `timing:
 * 'recorded'`, or `undefined` when they cannot be (not UTF-8, or not the body). The JSON each event
 * (or line) carries is read for secret-looking names as any JSON body is: each value found is
 * remembered, so the converter's second pass replaces it wherever it is, in these chunks joined
 * too; here its JSON string (`"value"`) is replaced across the chunks, whatever its length.
 */
function recordedStream(text: string, chunks: readonly RecordedBodyChunk[], mediaType: string, sink: Sink): MockResponse['stream'] | undefined {
  const texts = decodeChunkTexts(chunks);
  if (texts === undefined || texts.join('') !== text) return undefined;
  const named = new Set<string>();
  const secrets: SecretRegistry = {
    ...sink.rules.secrets,
    add(value, source, minLength) {
      named.add(value);
      sink.rules.secrets.add(value, source, minLength);
    },
  };
  const what = mediaType === 'text/event-stream' ? 'event' : 'line';
  streamedJsonValues(text, mediaType).forEach((value, i) => redactResponseValue(value, `response.stream.chunks (${what} ${i})`, { ...sink, rules: { ...sink.rules, secrets } }));
  const pairs = [...named].sort((a, b) => b.length - a.length).map((value) => [JSON.stringify(value), JSON.stringify(REDACTED)] as const);
  const redacted = replaceAcrossChunks(texts, pairs).texts;
  return { timing: 'recorded', chunks: redacted.map((chunk, i) => ({ text: chunk, atMs: chunks[i]!.atMs })) };
}

/**
 * A recorded response as a `MockResponse`: volatile headers dropped (see `VOLATILE_RESPONSE_HEADERS`),
 * secret headers and JSON keys replaced by `[redacted]`, the body decompressed and kept as JSON
 * (`body`), text (`body`), Server-Sent Events (`stream.events`) or bytes (`bodyBase64`). A streamed
 * answer (Server-Sent Events, newline-delimited JSON) whose `chunks` were recorded, uncompressed,
 * is kept as those chunks with their times (`stream.chunks` of `{ text, atMs }`, `timing: 'recorded'`).
 */
export function responseDraft(method: string, status: number, headers: [string, string][], rawBody: Uint8Array | string | undefined, rules: ResponseRules, redactions: PendingRedaction[], chunks?: readonly RecordedBodyChunk[]): DraftResponse {
  const sink: Sink = { rules, redactions };
  const contentEncoding = headers.filter(([name]) => name === 'content-encoding').map(([, value]) => value).join(', ');
  const { body: decoded, stillEncoded } = decodeResponseBody(contentEncoding, rawBody);

  const kept = new Map<string, string[]>();
  for (const [name, value] of headers) {
    if (name === 'set-cookie') {
      for (const part of credentialParts(name, value)) rules.secrets.add(part, 'the value of response.headers.set-cookie');
    }
    if (name === 'content-encoding' && stillEncoded !== undefined) {
      kept.set(name, [stillEncoded]);
      continue;
    }
    if (rules.volatile.responseHeader(name)) continue;
    let text = value;
    if (isSecretHeaderName(name) || rules.secretHeaders.has(name)) {
      for (const part of credentialParts(name, value)) rules.secrets.add(part, `the value of response.headers.${name}`);
      redactions.push({ field: `response.headers.${name}`, action: 'replaced', reason: 'secret-looking name' });
      text = REDACTED;
    } else if (URL_HEADERS.has(name)) {
      text = redactResponseValue(value, `response.headers.${name}`, sink) as string;
    }
    kept.set(name, [...(kept.get(name) ?? []), text]);
  }
  const response: MockResponse = { status };
  if (kept.size > 0) response.headers = sortedRecord([...kept].map(([name, values]) => [name, values.join(', ')]));

  const { mediaType, charset } = parseContentType(kept.get('content-type')?.[0]);
  const draft: DraftResponse = { response, kind: 'none', mediaType };
  if (decoded === undefined || decoded.length === 0 || NO_BODY.has(status) || method === 'HEAD') return draft;
  if (stillEncoded !== undefined) return { ...draft, response: { ...response, bodyBase64: toBase64(decoded) }, kind: 'binary' };

  const text = isJsonType(mediaType) || isTextType(mediaType) || mediaType === 'text/event-stream' || mediaType === '' ? decodeText(decoded, charset) : undefined;
  if (text === undefined) return { ...draft, response: { ...response, bodyBase64: toBase64(decoded) }, kind: 'binary' };

  if (chunks !== undefined && chunks.length > 0 && contentEncoding === '' && isStreamedType(mediaType)) {
    const stream = recordedStream(text, chunks, mediaType, sink);
    if (stream !== undefined) return { ...draft, response: { ...response, stream }, kind: 'recorded' };
  }
  if (mediaType === 'text/event-stream') {
    const events = parseEventStream(text).map((event, i) => {
      const json = parseJsonContainer(event.data);
      return { ...event, data: json === undefined ? event.data : redactResponseValue(json, `response.stream.events[${i}].data`, sink) };
    });
    if (events.length > 0) return { ...draft, response: { ...response, stream: { events } }, kind: 'events' };
  }
  if (isJsonType(mediaType) || mediaType === '') {
    const json = parseJsonContainer(text);
    if (json !== undefined) return { ...draft, response: { ...response, body: redactResponseValue(json, 'response.body', sink) }, kind: 'json' };
  }
  return { ...draft, response: { ...response, body: redactTextBody(text, mediaType, sink) }, kind: 'text' };
}
