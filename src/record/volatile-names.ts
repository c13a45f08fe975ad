/**
 * What changes from one call to the next without meaning anything: dropped from `match` (query
 * parameters, body keys) and from recorded responses (headers), so a replay does not depend
 * on the clock or on chance. Documented in docs/record-and-import.md, "What is dropped".
 */

function normalise(name: string): string {
  return name.toLowerCase().replace(/[-_.\s]/g, '');
}

/** Query parameters dropped whatever their value: cache busters, timestamps, nonces, signatures of presigned URLs. */
export const VOLATILE_QUERY_PARAMS: readonly string[] = [
  '_', '_t', '_ts', '_dc', '_cb', 'cb', 'ts', 'timestamp', 'cachebuster', 'cache_buster', 'cachebust', 'nocache', 'no_cache',
  'rnd', 'rand', 'random', 'nonce', 'sig', 'signature', 'expires', 'request_id', 'correlation_id', 'trace_id',
  'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-Signature', 'X-Amz-SignedHeaders', 'X-Goog-Date', 'X-Goog-Expires', 'X-Goog-Signature', 'X-Goog-SignedHeaders',
];

/** Request body keys dropped from `match.body` whatever their value. */
export const VOLATILE_BODY_KEYS: readonly string[] = ['timestamp', 'ts', 'nonce', 'cache_buster', 'request_id', 'client_request_id', 'correlation_id', 'trace_id', 'idempotency_key'];

/** Response headers never recorded: dates, cookies, validators, request and trace IDs, framing, rate-limit counters. */
export const VOLATILE_RESPONSE_HEADERS: readonly string[] = [
  'date', 'age', 'expires', 'set-cookie', 'etag', 'content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive',
  'x-request-id', 'request-id', 'x-amzn-requestid', 'x-amzn-trace-id', 'x-amz-request-id', 'x-amz-id-2', 'x-amz-cf-id', 'x-amz-cf-pop',
  'cf-ray', 'cf-cache-status', 'x-github-request-id', 'x-correlation-id', 'x-trace-id', 'traceparent', 'tracestate', 'x-cloud-trace-context',
  'x-runtime', 'x-response-time', 'server-timing', 'x-served-by', 'x-cache', 'x-cache-hits', 'x-timer', 'x-envoy-upstream-service-time',
  'via', 'alt-svc', 'report-to', 'nel', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-used', 'ratelimit', 'ratelimit-remaining',
  'ratelimit-reset', 'openai-processing-ms',
];

/** Response header names that carry a per-call ID or timing whatever their exact spelling. */
const VOLATILE_HEADER_LOOKING = /request-?id|trace|correlation|-timing$|latency|-ms$/i;

const EPOCH_SECONDS = /^[1-4]\d{9}$/;
const EPOCH_MILLIS = /^[1-4]\d{12}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
/** Hex or UUID-like, at least 16 characters, digits and letters mixed: what random generators print. */
const RANDOM = /^(?=.*\d)(?=.*[a-f])[0-9a-f-]{16,}$/i;
/** A name that says the value is a time. */
const TIME_NAME = /time|stamp|now|date/;
/** A name that says the value is a one-off, whatever it looks like: `nonce`, `rand…`, `rnd`, `…cachebust…`, `…buster`. */
const ONE_OFF_NAME = /^(?:rand|rnd)|nonce|cachebust|buster$/;

/**
 * The heuristic beyond the lists: a name that says one-off (`nonce`, `random`, `cachebust`,
 * `buster`); a timestamp (Unix seconds or milliseconds, or an ISO date-time) under a name that
 * is anonymous (`_…`, up to 3 characters: `t`, `ts`, `v`) or says time (`time`, `stamp`, `now`,
 * `date`); a random hex or UUID string under a name starting with `_`. A timestamp under a
 * meaningful name (`since=1700000000`) and an ID (`id=3f2a…`) are kept.
 */
function looksVolatile(name: string, value: unknown): boolean {
  const key = normalise(name);
  if (ONE_OFF_NAME.test(key)) return true;
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  const text = String(value);
  const timestamp = EPOCH_SECONDS.test(text) || EPOCH_MILLIS.test(text) || DATE_TIME.test(text);
  if (timestamp && (name.startsWith('_') || key.length <= 3 || TIME_NAME.test(key))) return true;
  return name.startsWith('_') && RANDOM.test(text);
}

function listed(list: readonly string[], extra: readonly string[] | undefined): Set<string> {
  return new Set([...list, ...(extra ?? [])].map(normalise));
}

/** The three volatility tests, with the user's extra names added to the lists. */
export interface VolatileRules {
  query(name: string, value: string): boolean;
  bodyKey(name: string, value: unknown): boolean;
  responseHeader(name: string): boolean;
}

/** Extra names the user adds to the lists (`volatile` option of `scenarioFromTraffic`). */
export interface VolatileNames {
  /** More query parameter names to drop from `match.query`. */
  query?: string[];
  /** More body keys to drop from `match.body` and `match.graphql.variables`. */
  body?: string[];
  /** More response header names not to record. */
  responseHeaders?: string[];
}

/** The volatility tests for one conversion. */
export function volatileRules(extra: VolatileNames = {}): VolatileRules {
  const query = listed(VOLATILE_QUERY_PARAMS, extra.query);
  const body = listed(VOLATILE_BODY_KEYS, extra.body);
  const headers = new Set([...VOLATILE_RESPONSE_HEADERS, ...(extra.responseHeaders ?? [])].map((name) => name.toLowerCase()));
  return {
    query: (name, value) => query.has(normalise(name)) || looksVolatile(name, value),
    bodyKey: (name, value) => body.has(normalise(name)) || looksVolatile(name, value),
    responseHeader: (name) => headers.has(name.toLowerCase()) || VOLATILE_HEADER_LOOKING.test(name),
  };
}
