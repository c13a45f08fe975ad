import { parseRequestBody } from '../core/engine/body/parse-request-body.js';
import { readGraphqlOperations } from '../core/engine/body/read-graphql-operations.js';
import { isStringMatcherObject } from '../core/engine/string-match.js';
import { isSecretHeaderName } from '../core/journal/redact-headers.js';
import type { MockMatch } from '../core/types.js';
import { childPath, isPlainObject, leafTexts, parseJsonContainer, setOwn, sortedRecord } from './plain-data.js';
import type { PendingRedaction } from './redaction.js';
import { redactXmlText } from './redact-xml-text.js';
import { isSecretField, isSecretKey, isSecretQueryParam } from './secret-names.js';
import { credentialParts, type SecretRegistry } from './secret-registry.js';
import type { VolatileRules } from './volatile-names.js';

/** What request matching needs to know for one conversion. */
export interface MatchRules {
  volatile: VolatileRules;
  /** Extra secret key and query names (normalised, see `secretNameSet`). */
  secretKeys: ReadonlySet<string>;
  /** Extra secret request header names, lower case. */
  secretHeaders: ReadonlySet<string>;
  /** Request headers to match (lower case); none by default. */
  matchHeaders: ReadonlySet<string>;
  secrets: SecretRegistry;
}

/** One call's request, read. */
export interface RequestView {
  method: string;
  url: URL;
  headers: [string, string][];
  body: Uint8Array | string | undefined;
}

/** The match of one recorded call, before known secret values are scrubbed from it. */
export interface DraftMatch {
  match: MockMatch;
  /** The GraphQL operation name, for the mock's ID. */
  operationName: string | undefined;
}

/** Query parameters GraphQL-over-HTTP GET uses: matched through `match.graphql`, not `match.query`. */
const GRAPHQL_PARAMS = new Set(['query', 'operationName', 'variables', 'extensions']);
interface Sink {
  rules: MatchRules;
  redactions: PendingRedaction[];
  notes: string[];
}

/**
 * A body (or GraphQL variables) as a partial match: secret-looking keys removed (their values
 * remembered as secrets), volatile keys dropped, objects that would read as a string matcher
 * (`{ "contains": "x" }`) dropped, since a file cannot say "this object, literally".
 */
function cleanForMatch(value: unknown, path: string, sink: Sink): unknown {
  if (Array.isArray(value)) return value.map((item, i) => cleanForMatch(item, childPath(path, i), sink));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = value[key];
    const itemPath = childPath(path, key);
    if (isSecretField(key, item, sink.rules.secretKeys)) {
      for (const text of leafTexts(item)) sink.rules.secrets.add(text, `the value of ${itemPath}`);
      sink.redactions.push({ field: itemPath, action: 'removed from match', reason: 'secret-looking name' });
      continue;
    }
    if (typeof item === 'string' && holdsSecretKey(parseJsonContainer(item), `${itemPath} (JSON in a string)`, sink)) {
      sink.redactions.push({ field: itemPath, action: 'removed from match', reason: 'JSON in a string with a secret-looking name inside' });
      continue;
    }
    if (sink.rules.volatile.bodyKey(key, item)) {
      sink.notes.push(`${itemPath}: volatile, left out of the match`);
      continue;
    }
    if (isStringMatcherObject(item)) {
      sink.notes.push(`${itemPath}: an object that would read as a string matcher, left out of the match`);
      continue;
    }
    setOwn(out, key, cleanForMatch(item, itemPath, sink));
  }
  return out;
}

/** True when JSON held in a string field has a secret-looking key at any depth; its values are remembered as secrets. */
function holdsSecretKey(value: unknown, path: string, sink: Sink): boolean {
  if (Array.isArray(value)) return value.map((item, i) => holdsSecretKey(item, childPath(path, i), sink)).includes(true);
  if (!isPlainObject(value)) return false;
  let found = false;
  for (const [key, item] of Object.entries(value)) {
    if (isSecretField(key, item, sink.rules.secretKeys)) {
      for (const text of leafTexts(item)) sink.rules.secrets.add(text, `the value of ${childPath(path, key)}`);
      found = true;
    } else if (holdsSecretKey(typeof item === 'string' ? parseJsonContainer(item) : item, childPath(path, key), sink)) {
      found = true;
    }
  }
  return found;
}

/**
 * An XML or SOAP request body is not matched, so never written; the values of its secret
 * elements (`<wsse:Password>`) are remembered, to be cut out where the answer echoes them.
 */
function rememberXmlSecrets(text: string, sink: Sink): void {
  if (!/^\s*</.test(text)) return;
  const found = redactXmlText(text, (name) => isSecretKey(name, sink.rules.secretKeys));
  found?.values.forEach((value, i) => sink.rules.secrets.add(value, `the value of request.body element ${found.names[i]}`));
}

function isEmptyObject(value: unknown): boolean {
  return isPlainObject(value) && Object.keys(value).length === 0;
}

/** The GraphQL criteria of a request that carries exactly one named operation; else `undefined`. */
function graphqlMatch(view: RequestView, body: unknown, sink: Sink): { graphql: NonNullable<MockMatch['graphql']>; operationName: string } | undefined {
  const operations = readGraphqlOperations({ url: view.url, headers: new Headers(view.headers), body });
  if (operations.length !== 1 || operations[0]!.operationName === undefined) return undefined;
  const { operationName, variables } = operations[0]!;
  const cleaned = cleanForMatch(variables, 'request.graphql.variables', sink);
  return { operationName: operationName!, graphql: { operationName: operationName!, ...(isPlainObject(cleaned) && !isEmptyObject(cleaned) ? { variables: cleaned } : {}) } };
}

/**
 * The `match` of one recorded call: query parameters (volatile ones dropped, secret ones
 * removed), the JSON, form or multipart body as a partial match (same rules), or for GraphQL
 * the operation name and variables; request headers only when asked for. Every secret value
 * met is remembered in `rules.secrets`, so it is searched for in the rest of the output.
 */
export async function requestMatch(view: RequestView, rules: MatchRules, redactions: PendingRedaction[], notes: string[]): Promise<DraftMatch> {
  const sink: Sink = { rules, redactions, notes };
  const match: MockMatch = {};

  for (const [name, value] of view.headers) {
    const secret = isSecretHeaderName(name) || rules.secretHeaders.has(name);
    if (secret) {
      for (const part of credentialParts(name, value)) rules.secrets.add(part, `the value of request.headers.${name}`);
      redactions.push({ field: `request.headers.${name}`, action: rules.matchHeaders.has(name) ? 'removed from match' : 'not recorded', reason: 'secret-looking name' });
    }
  }

  let parsed: Awaited<ReturnType<typeof parseRequestBody>>;
  try {
    parsed = view.body === undefined ? undefined : await parseRequestBody(view.headers.find(([name]) => name === 'content-type')?.[1], view.body);
  } catch (error) {
    notes.push(`request.body: not matched (${(error as Error).message})`);
    parsed = undefined;
  }
  const structured = parsed !== undefined && parsed.format !== 'text';
  if (parsed?.format === 'text' && typeof parsed.value === 'string') rememberXmlSecrets(parsed.value, sink);
  const graphql = graphqlMatch(view, parsed?.value, sink);

  const query: [string, string][] = [];
  const seen = new Set<string>();
  for (const [name, value] of view.url.searchParams) {
    if (seen.has(name)) continue; // match.query reads the first value, as URLSearchParams.get does.
    seen.add(name);
    if (graphql !== undefined && GRAPHQL_PARAMS.has(name)) continue;
    if (isSecretQueryParam(name, rules.secretKeys)) {
      rules.secrets.add(value, `the value of request.query.${name}`);
      redactions.push({ field: `request.query.${name}`, action: 'removed from match', reason: 'secret-looking name' });
    } else if (rules.volatile.query(name, value)) {
      notes.push(`request.query.${name}: volatile, left out of the match`);
    } else {
      query.push([name, value]);
    }
  }
  if (query.length > 0) match.query = sortedRecord(query);

  if (graphql !== undefined) {
    match.graphql = graphql.graphql;
  } else if (structured && typeof parsed!.value === 'string' && holdsSecretKey(parseJsonContainer(parsed!.value), 'request.body (JSON in a string)', sink)) {
    // A whole body encoded twice: a redacted field is left out, so the body is not matched.
    redactions.push({ field: 'request.body', action: 'removed from match', reason: 'JSON in a string with a secret-looking name inside' });
  } else if (structured) {
    const body = cleanForMatch(parsed!.value, 'request.body', sink);
    if (!isEmptyObject(body)) match.body = body;
  }

  const headers: [string, string][] = [];
  for (const [name, value] of view.headers) {
    if (rules.matchHeaders.has(name) && !isSecretHeaderName(name) && !rules.secretHeaders.has(name) && !headers.some(([known]) => known === name)) headers.push([name, value]);
  }
  if (headers.length > 0) match.headers = sortedRecord(headers);

  return { match, operationName: graphql?.operationName };
}
