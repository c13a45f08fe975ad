import { MAX_JSON_BODY_DEPTH } from '../engine/body/parse-json-body.js';
import { nestsDeeperThan } from '../engine/body/nests-deeper-than.js';
import { knownBodyOf } from './known-body.js';
import { invalidJsonIssue, type ValidationIssue } from './switch-request-body.js';

export type JsonBodyResult = { ok: true; value: unknown } | { ok: false; status: 400; issue: ValidationIssue } | { ok: false; status: 413 };

/**
 * Read and drop the rest of a body, chunk by chunk, in the background.
 * @note Cancelling instead would destroy a node:http request, and with it the socket the
 * answer is about to be written to: the client would see ECONNRESET, not the 413. Left unread,
 * the body would stall a keep-alive connection. Node's `server.requestTimeout` bounds a client
 * that never stops sending.
 */
function drain(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  void (async () => {
    for (;;) if ((await reader.read()).done) return;
  })().catch(() => {});
}

/** Drop a request body nobody read, so the connection it came on stays usable. */
export function discardBody(request: Request): void {
  if (request.body !== null && !request.body.locked) drain(request.body.getReader());
}

/**
 * Read and parse a control request's JSON body, stopping as soon as it exceeds `limit` bytes
 * (the rest is read and dropped, never buffered). The content type is not checked:
 * `fetch(url, { method: 'POST', body: JSON.stringify(...) })` sends text/plain, and refusing
 * that would surprise more users than it protects.
 */
export async function readJsonBody(request: Request, limit: number): Promise<JsonBodyResult> {
  const known = knownBodyOf(request);
  if (known !== undefined) return Buffer.byteLength(known) > limit ? { ok: false, status: 413 } : parseJson(known);
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    discardBody(request);
    return { ok: false, status: 413 };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        // The client went away mid-body (or the stream broke): a bad request, not our failure.
        return { ok: false, status: 400, issue: invalidJsonIssue(`the body could not be read (${(error as Error).message})`) };
      }
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > limit) {
        drain(reader);
        return { ok: false, status: 413 };
      }
      chunks.push(chunk.value);
    }
  }
  return parseJson(Buffer.concat(chunks).toString('utf8'));
}

export function parseJson(text: string): JsonBodyResult {
  if (text.trim() === '') return { ok: false, status: 400, issue: invalidJsonIssue('the body is empty') };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return { ok: false, status: 400, issue: invalidJsonIssue((error as Error).message) };
  }
  return boundedJson(value);
}

/**
 * A parsed control body, refused when it nests deeper than {@link MAX_JSON_BODY_DEPTH} levels.
 * @note `JSON.parse` reads any depth, but what the endpoints do next (validate, copy into the
 * store, serialise for `GET /__harness__/state`) recurses: a 5,000-deep state seed answered 500,
 * and so did every later read of that test's state (issue 23, item 14). Refused here, nothing is stored.
 */
export function boundedJson(value: unknown): JsonBodyResult {
  if (!nestsDeeperThan(value, MAX_JSON_BODY_DEPTH)) return { ok: true, value };
  return {
    ok: false,
    status: 400,
    issue: {
      code: 'too_deep',
      expected: `JSON nested at most ${MAX_JSON_BODY_DEPTH} levels deep`,
      received: `JSON nested deeper than ${MAX_JSON_BODY_DEPTH} levels`,
      path: [],
      message: `Request body nests deeper than ${MAX_JSON_BODY_DEPTH} levels of arrays and objects, the limit for control requests. Send a flatter body (a deeper value can go as a JSON string).`,
    },
  };
}
