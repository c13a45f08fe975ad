import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Harness } from '../core/create-harness.js';
import { jsonResponse } from '../core/control/json-response.js';
import { knownBodyOf, withKnownBody } from '../core/control/known-body.js';

/** The path of a node:http request URL, without its query. */
export function pathnameOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * A Fetch `Request` for a node:http request. `parsedBody` is what a body parser already read
 * (the stream is then empty); otherwise the body is streamed from `req`.
 */
export function toFetchRequest(req: IncomingMessage, options: { url?: string; parsedBody?: unknown } = {}): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  let text: string | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const { parsedBody } = options;
    if (parsedBody !== undefined) {
      text = typeof parsedBody === 'string' ? parsedBody : parsedBody instanceof Uint8Array ? Buffer.from(parsedBody).toString('utf8') : serialiseParsedBody(parsedBody);
      init.body = text;
      headers.delete('content-length');
    } else if (!req.readableEnded) {
      init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
      // @note Node's fetch requires duplex: 'half' for a streamed request body.
      init.duplex = 'half';
    }
  }
  const request = new Request(urlOf(req, options.url ?? req.url ?? '/'), init);
  return text === undefined ? request : withKnownBody(request, text);
}

/** The request's absolute URL; a Host header that makes no URL falls back to `localhost`. */
function urlOf(req: IncomingMessage, path: string): URL {
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const protocol = encrypted ? 'https' : 'http';
  try {
    return new URL(path, `${protocol}://${req.headers.host ?? 'localhost'}`);
  } catch {
    return new URL(path, `${protocol}://localhost`);
  }
}

/**
 * A parsed body back to JSON.
 * @note express.json() accepts a body nested thousands of levels deep, which JSON.stringify
 * cannot write back (stack overflow). The control endpoints only look one level deep, so a
 * copy with the deeper levels emptied validates the same: the answer stays SPEC's 400.
 */
function serialiseParsedBody(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch {
    const empty = (value: unknown) => (Array.isArray(value) ? [] : typeof value === 'object' && value !== null ? {} : value);
    return JSON.stringify(Array.isArray(body) ? [] : Object.fromEntries(Object.entries(body as object).map(([key, value]) => [key, empty(value)])));
  }
}

/**
 * Hand each header of `response` to `set`, multi-value `Set-Cookie` as one array (iterating
 * Fetch `Headers` would join the cookies into one comma-separated value, which breaks them).
 */
export function copyHeaders(response: Response, set: (name: string, value: string | string[]) => unknown): void {
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') set(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) set('set-cookie', cookies);
}

/** Write a Fetch `Response` to a node:http response, keeping multi-value `Set-Cookie` intact. */
export async function sendFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  copyHeaders(response, (name, value) => res.setHeader(name, value));
  res.end(await bodyOf(response));
}

/**
 * The control answer for a node:http request, or `null` for any other request. A request the
 * Fetch API cannot represent (a TRACE, say) is the client's mistake: 400, not 500.
 * Shared by every Node adapter.
 */
export async function controlResponseFor(harness: Harness, req: IncomingMessage, options: { url?: string; parsedBody?: unknown } = {}): Promise<Response | null> {
  let request: Request;
  try {
    request = toFetchRequest(req, options);
  } catch (error) {
    return jsonResponse({ error: `Failed to read the control request: ${(error as Error).message}` }, 400);
  }
  return harness.handle(request);
}

/** A control response's body as bytes for a Node response, without a stream read when the text is known. */
export async function bodyOf(response: Response): Promise<string | Buffer> {
  return knownBodyOf(response) ?? Buffer.from(await response.arrayBuffer());
}

/**
 * Answer a control request on node:http; false when `req` is not one (the caller continues).
 * Used by the Express and node:http adapters.
 */
export async function handleNodeControlRequest(
  harness: Harness,
  req: IncomingMessage,
  res: ServerResponse,
  options: { url?: string; parsedBody?: unknown } = {},
): Promise<boolean> {
  if (!harness.isControlPath(pathnameOf(options.url ?? req.url))) return false;
  const response = await controlResponseFor(harness, req, options);
  if (response === null) return false;
  await sendFetchResponse(res, response);
  return true;
}
