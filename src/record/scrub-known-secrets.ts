import type { MockMatch, MockResponse } from '../core/types.js';
import { childPath, isPlainObject, leafTexts, setOwn } from './plain-data.js';
import { isRecordedStream, replaceAcrossChunks } from './recorded-stream.js';
import type { PendingRedaction } from './redaction.js';
import { REDACTED } from './secret-names.js';
import type { KnownSecret, SecretRegistry } from './secret-registry.js';

/** Marks where a secret was cut out of a URL path; the URL pattern turns it into a wildcard. */
export const PATH_WILDCARD = '\u0000';

const REMOVE = Symbol('remove');

function containsSecret(value: unknown, secrets: SecretRegistry): KnownSecret | undefined {
  for (const text of leafTexts(value)) {
    const found = secrets.find(text);
    if (found) return found;
  }
  return undefined;
}

/** A match value without the keys that hold a known secret; an array holding one is removed whole (arrays match by length). */
function scrubMatchValue(value: unknown, path: string, secrets: SecretRegistry, redactions: PendingRedaction[]): unknown {
  if (Array.isArray(value)) return containsSecret(value, secrets) ? REMOVE : value;
  if (!isPlainObject(value)) {
    const found = containsSecret(value, secrets);
    return found ? REMOVE : value;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const itemPath = childPath(path, key);
    const found = containsSecret(item, secrets);
    if (found && (Array.isArray(item) || !isPlainObject(item))) {
      redactions.push({ field: itemPath, action: 'removed from match', reason: found.source });
      continue;
    }
    const scrubbed = scrubMatchValue(item, itemPath, secrets, redactions);
    if (scrubbed !== REMOVE) setOwn(out, key, scrubbed);
  }
  return out;
}

/**
 * Remove from a match every criterion that holds a known secret value (sent under a name that
 * did not look secret): a redacted field is left out, never matched against a placeholder.
 */
export function scrubMatch(match: MockMatch, secrets: SecretRegistry, redactions: PendingRedaction[]): MockMatch {
  const out: MockMatch = {};
  for (const key of ['query', 'headers'] as const) {
    const record = match[key];
    if (record === undefined) continue;
    const kept = scrubMatchValue(record, `request.${key}`, secrets, redactions) as Record<string, string>;
    if (Object.keys(kept).length > 0) out[key] = kept;
  }
  if (match.body !== undefined) {
    const found = !isPlainObject(match.body) ? containsSecret(match.body, secrets) : undefined;
    if (found) redactions.push({ field: 'request.body', action: 'removed from match', reason: found.source });
    else {
      const body = scrubMatchValue(match.body, 'request.body', secrets, redactions);
      if (body !== REMOVE && !(isPlainObject(body) && Object.keys(body).length === 0)) out.body = body;
    }
  }
  if (match.graphql !== undefined) {
    const { operationName, variables } = match.graphql;
    const kept = variables === undefined ? undefined : (scrubMatchValue(variables, 'request.graphql.variables', secrets, redactions) as Record<string, unknown>);
    out.graphql = { ...(operationName !== undefined ? { operationName } : {}), ...(kept !== undefined && Object.keys(kept).length > 0 ? { variables: kept } : {}) };
  }
  return out;
}

/** A URL path with every known secret (a bot token in `/bot<token>/sendMessage`) cut out and marked for a wildcard. */
export function scrubPath(path: string, secrets: SecretRegistry, redactions: PendingRedaction[]): string {
  const { text, found } = secrets.replace(path, PATH_WILDCARD);
  for (const secret of found) redactions.push({ field: 'request.url', action: 'replaced', reason: `${secret.source} (a * wildcard in the URL path)` });
  return text;
}

function scrubValue(value: unknown, path: string, secrets: SecretRegistry, redactions: PendingRedaction[]): unknown {
  if (typeof value === 'number') {
    // A card number sent as a JSON number: found by its value, it cannot stay a number.
    const found = secrets.find(String(value));
    if (found === undefined || found.value !== String(value)) return value;
    redactions.push({ field: path, action: 'replaced', reason: found.source });
    return REDACTED;
  }
  if (typeof value === 'string') {
    const { text, found } = secrets.replace(value);
    for (const secret of found) redactions.push({ field: path, action: 'replaced', reason: secret.source });
    return text;
  }
  if (Array.isArray(value)) return value.map((item, i) => scrubValue(item, childPath(path, i), secrets, redactions));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) setOwn(out, key, scrubValue(item, childPath(path, key), secrets, redactions));
  return out;
}

/**
 * A response with every known secret value replaced by `[redacted]` wherever it appears in a
 * header, the body text or JSON, a streamed event, or a recorded stream's chunks (joined). A binary body is left alone: the leak
 * check refuses it rather than rewrite bytes it cannot read.
 */
export function scrubResponse(response: MockResponse, secrets: SecretRegistry, redactions: PendingRedaction[]): MockResponse {
  const out: MockResponse = { ...response };
  if (response.headers !== undefined) out.headers = scrubValue(response.headers, 'response.headers', secrets, redactions) as Record<string, string>;
  if (response.body !== undefined) out.body = scrubValue(response.body, 'response.body', secrets, redactions);
  if (response.stream?.events !== undefined) out.stream = { ...response.stream, events: scrubValue(response.stream.events, 'response.stream.events', secrets, redactions) as NonNullable<MockResponse['stream']>['events'] };
  if (isRecordedStream(response.stream)) {
    // Searched in the chunks joined: a value split between two chunks is found and replaced whole.
    const known = secrets.list();
    const { texts, found } = replaceAcrossChunks(response.stream.chunks.map(({ text }) => text), known.map(({ value }) => [value, REDACTED] as const));
    for (const index of found) redactions.push({ field: 'response.stream.chunks', action: 'replaced', reason: known[index]!.source });
    out.stream = { ...response.stream, chunks: response.stream.chunks.map((chunk, i) => ({ ...chunk, text: texts[i]! })) };
  }
  return out;
}
