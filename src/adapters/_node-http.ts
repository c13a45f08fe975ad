import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppReadinessCheck } from '../core/control/app-readiness.js';
import { jsonAnswer, type ControlAnswer, type ControlCall } from '../core/control/control-call.js';
import { knownBodyOf } from '../core/control/known-body.js';
import { boundedJson, parseJson, type JsonBodyResult } from '../core/control/read-json-body.js';
import { invalidJsonIssue } from '../core/control/switch-request-body.js';
import type { Harness } from '../core/create-harness.js';
import { consoleLogger } from '../core/dev-utils.js';
import { isHarnessError } from '../core/errors.js';
import { getHarnessInternals } from '../core/harness-internals.js';

/**
 * The request headers of which node:http keeps only the first line in `req.headers`.
 * @see https://nodejs.org/api/http.html#messageheaders
 */
const FIRST_LINE_ONLY = new Set(['age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** The path of a node:http request URL, without its query. */
export function pathnameOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** What a Node framework already knows of a control request: its URL as mounted, and a body a parser read (or refused). */
export interface NodeControlOptions {
  url?: string;
  parsedBody?: unknown;
  /**
   * A body parser mounted before the harness refused the body (malformed, too large): the
   * endpoint answers this when it reads the body, after the access check, like a body it read itself.
   */
  bodyFailure?: Extract<JsonBodyResult, { ok: false }>;
  /** Whether the app behind this server serves yet (`?ready`): whole-process scoping only, where the harness answers before the app exists. */
  appReadiness?: AppReadinessCheck;
}

/** A body a parser already read, as the text the control endpoints parse. */
function parsedBodyText(parsedBody: unknown): string {
  if (typeof parsedBody === 'string') return parsedBody;
  if (parsedBody instanceof Uint8Array) return Buffer.from(parsedBody).toString('utf8');
  return serialiseParsedBody(parsedBody);
}

/**
 * A control request straight from node:http, with no Fetch Request and no web stream (the
 * switch endpoint's throughput is bounded by exactly those objects). A body a parser already
 * read is used as it is; otherwise it is read from `req`, up to the limit.
 */
export function controlCallFromNode(req: IncomingMessage, { url = req.url ?? '/', parsedBody, bodyFailure, appReadiness }: NodeControlOptions = {}): ControlCall {
  const query = url.indexOf('?');
  let reading = false;
  return {
    method: req.method ?? 'GET',
    pathname: query === -1 ? url : url.slice(0, query),
    search: query === -1 ? '' : url.slice(query),
    header(name) {
      // @note For the headers Node keeps only the first line of (`authorization`…), headersDistinct
      // keeps every line: the access check must see a repeated one to refuse it. Only those pay for
      // it: headersDistinct builds a copy of every header on first use.
      // https://nodejs.org/api/http.html#messageheadersdistinct
      // Stand-ins for IncomingMessage (fastify.inject's light-my-request) have no headersDistinct.
      const distinct = FIRST_LINE_ONLY.has(name) ? (req.headersDistinct as NodeJS.Dict<string[]> | undefined) : undefined;
      const value = distinct === undefined ? req.headers[name] : distinct[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    async readJson(limit) {
      if (bodyFailure !== undefined) return bodyFailure;
      // A parser before us read a body of any depth: bound it before it is used or written back.
      if (typeof parsedBody === 'object' && parsedBody !== null && !(parsedBody instanceof Uint8Array)) {
        const bounded = boundedJson(parsedBody);
        if (!bounded.ok) return bounded;
      }
      // A JSON object a parser already read, within the limit: used as it is, not written back and parsed again.
      const declared = Number(req.headers['content-length']);
      if (isPlainObject(parsedBody) && Number.isFinite(declared) && declared <= limit) return { ok: true, value: parsedBody };
      if (parsedBody !== undefined || req.readableEnded) {
        const text = parsedBody === undefined ? '' : parsedBodyText(parsedBody);
        return Buffer.byteLength(text) > limit ? { ok: false, status: 413 } : parseJson(text);
      }
      reading = true;
      if (Number.isFinite(declared) && declared > limit) {
        req.resume();
        return { ok: false, status: 413 };
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of req) {
          size += (chunk as Buffer).byteLength;
          if (size > limit) {
            // @note Read and dropped, not destroyed: destroying would reset the socket the 413 goes out on.
            req.resume();
            return { ok: false, status: 413 };
          }
          chunks.push(chunk as Buffer);
        }
      } catch (error) {
        return { ok: false, status: 400, issue: invalidJsonIssue(`the body could not be read (${(error as Error).message})`) };
      }
      return parseJson(Buffer.concat(chunks).toString('utf8'));
    },
    discard() {
      if (!reading && !req.readableEnded) req.resume();
    },
    toRequest: () => requestWithoutBody(req, url),
    ...(appReadiness === undefined ? {} : { appReadiness }),
  };
}

/** `req`'s method, URL and headers as a Fetch Request, without its body (for `access.authorize`). */
function requestWithoutBody(req: IncomingMessage, url: string): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    // HTTP/2 pseudo-headers (:path) are no Fetch headers; a value Fetch refuses is left out.
    if (name.startsWith(':')) continue;
    try {
      headers.append(name, req.rawHeaders[i + 1]!);
    } catch {
      continue;
    }
  }
  const scheme = (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
  const host = req.headers.host ?? 'localhost';
  const href = URL.canParse(`${scheme}://${host}${url}`) ? `${scheme}://${host}${url}` : new URL(url, `${scheme}://localhost`).href;
  return new Request(href, { method: req.method ?? 'GET', headers });
}

/** The control answer for a node:http request, or `null` for any other request. Shared by every Node adapter. */
export function controlAnswerFor(harness: Harness, req: IncomingMessage, options: NodeControlOptions = {}): Promise<ControlAnswer | null> {
  return getHarnessInternals(harness).handleControl(controlCallFromNode(req, options));
}

/** Write a control answer to a node:http response. */
export function sendAnswer(res: ServerResponse, answer: ControlAnswer): void {
  res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.text) }).end(answer.text);
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

/** A control response's body as bytes for a Node response, without a stream read when the text is known. */
export async function bodyOf(response: Response): Promise<string | Buffer> {
  return knownBodyOf(response) ?? Buffer.from(await response.arrayBuffer());
}

/**
 * Answer a control request on node:http; false when `req` is not one (the caller continues).
 * Used by the Express and node:http adapters.
 */
export async function handleNodeControlRequest(harness: Harness, req: IncomingMessage, res: ServerResponse, options: NodeControlOptions = {}): Promise<boolean> {
  if (!harness.isControlPath(pathnameOf(options.url ?? req.url))) return false;
  const answer = await controlAnswerFor(harness, req, options);
  if (answer === null) return false;
  sendAnswer(res, answer);
  return true;
}

/**
 * Serve one node:http request: a control request is answered; any other (or a control path
 * with no endpoint there) is handed to `app` as its test. Shared by `withHarness` and
 * `scopeIncomingRequests` (which says, through `appReadiness`, whether the app behind the
 * server serves yet).
 * @note A harness that was never started refuses (`NOT_STARTED`, thrown by run()); thrown from
 * a request listener it would crash the server, so it becomes a 500 that carries the fix.
 */
export function serveAsTest(harness: Harness, req: IncomingMessage, res: ServerResponse, app: () => unknown, appReadiness?: (req: IncomingMessage, path: string) => ReturnType<AppReadinessCheck>): void {
  const testId = harness.testIdFrom(req.headers);
  const runAsTest = () => {
    try {
      harness.run(testId, app);
    } catch (error) {
      if (!isHarnessError(error) || error.code !== 'NOT_STARTED') throw error;
      sendAnswer(res, jsonAnswer({ error: error.message }, 500));
    }
  };
  if (!harness.isControlPath(pathnameOf(req.url))) return runAsTest();
  handleNodeControlRequest(harness, req, res, appReadiness === undefined ? {} : { appReadiness: (path) => appReadiness(req, path) }).then(
    (handled) => {
      if (!handled) runAsTest();
    },
    (error: unknown) => {
      sendAnswer(res, jsonAnswer({ error: 'Internal server error' }, 500));
      consoleLogger.error('Failed to answer a control request', error);
    },
  );
}
