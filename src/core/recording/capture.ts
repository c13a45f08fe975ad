import type { OutgoingCall } from '../interception/outgoing-call.js';
import type { RecordedExchange } from './recorded-exchange.js';

/** A response as a layer saw it come back from the real upstream. */
export interface CapturedResponse {
  status: number;
  headers: Iterable<[string, string]>;
  /** The body bytes as received (a compressed body stays compressed; the converter decodes it). */
  body: Uint8Array | undefined;
  /** The body as it arrived, chunk by chunk, each with its offset from the headers (a layer that reads it as it streams). */
  chunks?: TimedChunk[];
}

/** One piece of a response body as it came off the wire, `atMs` milliseconds after the response's headers. */
export interface TimedChunk {
  bytes: Uint8Array;
  atMs: number;
}

/**
 * A body's chunks noted as they arrive, timed from when this is made (the response's headers):
 * `add` copies each chunk and its offset, `result` gives the whole body and the timed chunks.
 */
export function timedChunks() {
  const startedAt = performance.now();
  const chunks: TimedChunk[] = [];
  return {
    add(chunk: Uint8Array) {
      if (chunk.byteLength > 0) chunks.push({ bytes: new Uint8Array(chunk), atMs: performance.now() - startedAt });
    },
    result(): { body: Uint8Array; chunks: TimedChunk[] } {
      return { body: new Uint8Array(Buffer.concat(chunks.map(({ bytes }) => bytes))), chunks };
    },
  };
}

/** Media types whose answers are streams, recorded with their chunks and each chunk's time: Server-Sent Events and newline-delimited JSON. */
const STREAMED_TYPES = /^\s*(?:text\/event-stream|application\/(?:x-)?ndjson|application\/jsonl|application\/x-jsonlines)\s*(?:;|$)/i;

/** What a layer does with a call it passes on for recording: report how it ended. */
export interface CaptureHandle {
  response(response: CapturedResponse): void;
  /** The call failed (or was aborted) before a whole response came back. */
  failed(): void;
}

/** Bytes as a recorded body: text when they are UTF-8, else base64. */
function toRecordedBody(bytes: Uint8Array | undefined): { body?: string; bodyBase64?: string } {
  if (bytes === undefined || bytes.byteLength === 0) return {};
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buffer.toString('utf8');
  return Buffer.from(text, 'utf8').equals(buffer) ? { body: text } : { bodyBase64: buffer.toString('base64') };
}

/**
 * A capture for one call passed on while its test records: the request as sent (its body read
 * first), and the response once a layer reports it, handed to `keep`.
 */
export async function createCapture(call: OutgoingCall, keep: (exchange: RecordedExchange) => void): Promise<CaptureHandle> {
  const requestBody = call.method === 'GET' || call.method === 'HEAD' ? undefined : await call.bodyBytes();
  const request = { method: call.method, url: call.url.href, headers: Object.fromEntries(call.headers), ...toRecordedBody(requestBody) };
  let settled = false;
  const settle = () => {
    if (settled) return false;
    settled = true;
    return true;
  };
  return {
    response({ status, headers, body, chunks }) {
      if (!settle()) return;
      const names: Record<string, string> = {};
      for (const [name, value] of headers) names[name.toLowerCase()] = name.toLowerCase() in names ? `${names[name.toLowerCase()]}, ${value}` : value;
      const response: RecordedExchange['response'] = { status, headers: names, ...toRecordedBody(body) };
      // A streamed answer keeps its chunks and their times (thousandths of a millisecond), to replay with `timing: 'recorded'`.
      if (chunks !== undefined && chunks.length > 0 && STREAMED_TYPES.test(names['content-type'] ?? '')) {
        response.chunks = chunks.map(({ bytes, atMs }) => ({ ...toRecordedBody(bytes), atMs: Math.round(atMs * 1000) / 1000 }));
      }
      keep({ request, response });
    },
    failed() {
      settle();
    },
  };
}

/**
 * Read a copy of a response's body chunk by chunk as it arrives, timing each from now (the
 * headers), and report it to `capture`; a body that fails is reported as failed. The caller
 * reads its own copy as it streams: nothing waits for this one.
 */
export function captureResponseCopy(copy: Response, capture: CaptureHandle): void {
  const chunks = timedChunks();
  const read = async () => {
    if (copy.body === null) return capture.response({ status: copy.status, headers: copy.headers, body: undefined });
    const reader = copy.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.add(value);
    }
    capture.response({ status: copy.status, headers: copy.headers, ...chunks.result() });
  };
  read().catch(() => capture.failed());
}

/**
 * The upstream's response of a recorded fetch, reported to its capture from a copy read as it
 * streams (see `captureResponseCopy`). A failed fetch is reported as failed.
 */
export async function capturedResponse(pending: Promise<Response>, capture: CaptureHandle): Promise<Response> {
  let response: Response;
  try {
    response = await pending;
  } catch (error) {
    capture.failed();
    throw error;
  }
  captureResponseCopy(response.clone(), capture);
  return response;
}
