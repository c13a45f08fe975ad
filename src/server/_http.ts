import type { IncomingMessage, ServerResponse } from 'node:http';
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
  const init: RequestInit & { duplex?: 'half' } = hasBody ? { method, headers, body: bodyStreamOf(req), duplex: 'half' } : { method, headers };
  return new Request(url, init);
}

/**
 * The request body as a web stream that reads from `req` only when someone reads it (the
 * engine matching on the body, or a forward). Unlike `Readable.toWeb`, giving up on it never
 * destroys the connection: see `drainRequest`.
 */
function bodyStreamOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let listening = false;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!listening) {
          listening = true;
          req.on('data', (chunk: Buffer) => {
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            if ((controller.desiredSize ?? 0) <= 0) req.pause();
          });
          req.once('end', () => controller.close());
          req.once('error', (error) => controller.error(error));
        }
        req.resume();
      },
      cancel() {
        drainRequest(req);
      },
    },
    // Nothing is read before the first read: a body no one needs stays in the socket until drained.
    { highWaterMark: 0 },
  );
}

/**
 * Read and drop what is left of a request body once its answer is written, so a kept-alive
 * connection is ready for its next request. (Node drains an unread body itself, but not one
 * a stream has started reading.)
 */
export function drainRequest(req: IncomingMessage): void {
  if (req.readableEnded) return;
  req.removeAllListeners('data');
  req.resume();
}

const PENDING = Symbol('pending');

/**
 * Write a Fetch `Response` to the client. A body that is all there at once (a mock's answer) is
 * sent whole, with its `content-length`; one that arrives over time (a forwarded download, a
 * mock's chunked or Server-Sent Events answer) is streamed chunk by chunk as it comes.
 * `Response.error()` (a mock's `error: 'network'`) drops the connection, which is what an
 * unreachable upstream looks like to the client.
 * @note Reading the body directly, not through `Readable.fromWeb` + `pipeline`: those cost more
 * than the engine itself on a small answer.
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
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => {}));
  try {
    const first = await reader.read();
    if (first.done) {
      res.end();
      return;
    }
    // Is the rest already there? A body built from a string ends on the very next read.
    const next = reader.read();
    const settled = await Promise.race([next, new Promise<typeof PENDING>((resolve) => setImmediate(resolve, PENDING))]);
    if (settled !== PENDING && settled.done) {
      if (!res.hasHeader('content-length')) res.setHeader('content-length', first.value.byteLength);
      res.end(first.value);
      return;
    }
    res.write(first.value);
    for (let chunk = settled === PENDING ? await next : settled; !chunk.done; chunk = await reader.read()) {
      if (!res.write(chunk.value)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end();
  } catch {
    // The client went away, or the upstream broke off mid-body: the connection is already gone.
    res.destroy();
  }
}
