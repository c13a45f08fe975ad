import { invalidJsonIssue, type ValidationIssue } from './switch-request-body.js';

export type JsonBodyResult = { ok: true; value: unknown } | { ok: false; status: 400; issue: ValidationIssue } | { ok: false; status: 413 };

/**
 * Read and parse a control request's JSON body, stopping as soon as it exceeds `limit` bytes
 * (the stream is cancelled; the rest is never buffered). The content type is not checked:
 * `fetch(url, { method: 'POST', body: JSON.stringify(...) })` sends text/plain, and refusing
 * that would surprise more users than it protects.
 */
export async function readJsonBody(request: Request, limit: number): Promise<JsonBodyResult> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await request.body?.cancel().catch(() => {});
    return { ok: false, status: 413 };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        return { ok: false, status: 413 };
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { ok: false, status: 400, issue: invalidJsonIssue('the body is empty') };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, status: 400, issue: invalidJsonIssue((error as Error).message) };
  }
}
