import type { OutgoingCall } from '../interception/outgoing-call.js';
import type { RecordedExchange } from './recorded-exchange.js';

/** A response as a layer saw it come back from the real upstream. */
export interface CapturedResponse {
  status: number;
  headers: Iterable<[string, string]>;
  /** The body bytes as received (a compressed body stays compressed; the converter decodes it). */
  body: Uint8Array | undefined;
}

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
    response({ status, headers, body }) {
      if (!settle()) return;
      const names: Record<string, string> = {};
      for (const [name, value] of headers) names[name.toLowerCase()] = name.toLowerCase() in names ? `${names[name.toLowerCase()]}, ${value}` : value;
      keep({ request, response: { status, headers: names, ...toRecordedBody(body) } });
    },
    failed() {
      settle();
    },
  };
}

/**
 * The upstream's response of a recorded fetch, reported to its capture from a copy read whole:
 * the caller reads the original as it streams. A failed fetch is reported as failed.
 */
export async function capturedResponse(pending: Promise<Response>, capture: CaptureHandle): Promise<Response> {
  let response: Response;
  try {
    response = await pending;
  } catch (error) {
    capture.failed();
    throw error;
  }
  response
    .clone()
    .arrayBuffer()
    .then(
      (body) => capture.response({ status: response.status, headers: response.headers, body: new Uint8Array(body) }),
      () => capture.failed(),
    );
  return response;
}
