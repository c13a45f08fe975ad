/** A browser's call as the answer endpoint reads it from `{ method, url, headers, bodyBase64? }`. */
export interface BrowserCallInput {
  /** Upper case. */
  method: string;
  url: URL;
  headers: Headers;
  /** `undefined`: the call has no body (or an empty one). */
  body: Uint8Array | undefined;
  /** `'websocket'` for a page's WebSocket (a `ws:`/`wss:` URL, read as its `http:`/`https:` handshake). */
  upgrade?: 'websocket';
}

const KEYS = ['method', 'url', 'headers', 'bodyBase64'];
/** An HTTP method is a token (RFC 9110 §9.1). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  return Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value;
}

/**
 * Check and decode an answer request's body; a string says what is wrong with it (the endpoint
 * answers it as a 400), in words a Cypress or WebdriverIO user routing by hand can act on.
 */
export function readBrowserCall(value: unknown): BrowserCallInput | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `expected { "method", "url", "headers", "bodyBase64"? }, instead got ${shown(value)}`;
  const body = value as Record<string, unknown>;
  const unknown = Object.keys(body).filter((key) => !KEYS.includes(key));
  if (unknown.length > 0) return `unknown ${unknown.length === 1 ? 'key' : 'keys'} ${unknown.map((key) => JSON.stringify(key)).join(', ')}; the keys are "method", "url", "headers" and "bodyBase64"`;
  const { method, url, headers, bodyBase64 } = body;
  if (typeof method !== 'string' || !TOKEN.test(method)) return `"method" must be an HTTP method such as "GET" or "POST", instead got ${shown(method)}`;
  let parsed: URL;
  try {
    if (typeof url !== 'string') throw new TypeError();
    parsed = new URL(url);
  } catch {
    return `"url" must be the absolute URL the browser called (https://maps.example.test/v1/geocode?q=x), instead got ${shown(url)}`;
  }
  // A page's WebSocket comes as its ws:/wss: URL: the handshake is made to the http:/https: one.
  const upgrade = parsed.protocol === 'ws:' || parsed.protocol === 'wss:' ? ('websocket' as const) : undefined;
  if (upgrade !== undefined) parsed = new URL(parsed.href.replace(/^ws/, 'http'));
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `"url" must be an http:, https: (a call) or ws:, wss: (a WebSocket) URL, instead got ${shown(url)}`;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return `"headers" must be an object of header names to string values, instead got ${shown(headers)}`;
  const built = new Headers();
  for (const [name, headerValue] of Object.entries(headers)) {
    if (typeof headerValue !== 'string') return `"headers.${name}" must be a string, instead got ${shown(headerValue)}`;
    try {
      built.append(name, headerValue);
    } catch {
      return `"headers.${name}" is not a valid header (name ${shown(name)}, value ${shown(headerValue)})`;
    }
  }
  if (bodyBase64 !== undefined && (typeof bodyBase64 !== 'string' || !BASE64.test(bodyBase64))) return `"bodyBase64" must be the body's bytes in base64, instead got ${shown(bodyBase64)}`;
  const bytes = bodyBase64 === undefined || bodyBase64 === '' ? undefined : new Uint8Array(Buffer.from(bodyBase64, 'base64'));
  return upgrade === undefined ? { method: method.toUpperCase(), url: parsed, headers: built, body: bytes } : { method: method.toUpperCase(), url: parsed, headers: built, body: undefined, upgrade };
}
