/** Error codes of a connection the other side closed or reset under a request. */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
/** The same, as clients spell it in messages: Node's http ("socket hang up"), undici ("other side closed"), Playwright (the cause's text). */
const RESET_TEXT = /ECONNRESET|EPIPE|UND_ERR_SOCKET|socket hang up|other side closed/i;

/**
 * True when `error` (or one of its causes) says the connection was reset or closed under the
 * request: what a client sees when it reuses a keep-alive connection the server has just
 * closed as idle. A refused connection, a timeout or a DNS failure is not one.
 * @see https://nodejs.org/api/http.html#requestreusedsocket
 */
export function isConnectionReset(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && RESET_CODES.has(code)) return true;
    if (typeof message === 'string' && RESET_TEXT.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
