import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { copyHeaders } from '../adapters/_node-http.js';

/**
 * Headers that describe one hop, not the call: a client's connection to us is not the call's
 * connection to the upstream (RFC 9110 §7.6.1). `host` names this server, not the upstream.
 */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'proxy-authorization']);

/**
 * The call a request to the standalone server stands for, as the engine sees an intercepted
 * call in embedded mode: the upstream URL, the client's headers and body.
 */
export function toCallRequest(req: IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    if (!HOP_HEADERS.has(name) && !name.startsWith(':')) headers.append(name, req.rawHeaders[i + 1]!);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // @note Node's fetch requires duplex: 'half' for a streamed request body.
  const init: RequestInit & { duplex?: 'half' } = hasBody ? { method, headers, body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : { method, headers };
  return new Request(url, init);
}

/**
 * Write a Fetch `Response` to the client, streaming its body (a forwarded download, a mock's
 * chunked or Server-Sent Events answer). `Response.error()` (a mock's `error: 'network'`)
 * drops the connection, which is what an unreachable upstream looks like to the client.
 */
export async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  if (response.type === 'error') {
    res.destroy();
    return;
  }
  res.statusCode = response.status;
  copyHeaders(response, (name, value) => res.setHeader(name, value));
  if (response.body === null) {
    res.end();
    return;
  }
  try {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), res);
  } catch {
    // The client went away, or the upstream broke off mid-body: the connection is already gone.
    res.destroy();
  }
}
