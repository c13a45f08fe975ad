/** One outgoing call of a test, as its journal records it (oldest first). */
export interface JournalEntry {
  /** When the call was intercepted (ISO 8601). */
  at: string;
  method: string;
  url: string;
  /**
   * `'browser'`: a call the test's browser made, answered through the app (`POST /__harness__/answer`,
   * the Playwright fixture's `harnessBrowser`). Absent for the app's own outgoing calls. A socket
   * entry (`kind`) always has it: `'server'` for the app's sockets.
   */
  side?: 'browser' | 'server';
  /** For a WebSocket a socket mock answers: `socket.open`, then each `socket.frame`, then `socket.close` (details in `socket`). Absent for HTTP calls. */
  kind?: 'socket.open' | 'socket.frame' | 'socket.close';
  /** A socket entry's details. */
  socket?: JournalSocket;
  /**
   * For an HTTP `Upgrade` request (a WebSocket handshake from `ws`, undici's WebSocket,
   * socket.io): the protocol it asked for, `websocket`. No HTTP mock answers one: `unhandled`
   * says whether it passed through or failed.
   */
  upgrade?: string;
  /** Lower-case names; secrets redacted (`[redacted]`), see `journal.redactHeaders`. */
  requestHeaders: Record<string, string>;
  /** The parsed view of the body (JSON, form or multipart fields, else the text); cut at `journal.maxBodyBytes`. */
  requestBody?: unknown;
  /**
   * True when the journal kept less than the parsed body: it was longer than `journal.maxBodyBytes`,
   * or its parsed form would take more than `journal.maxEntryBytes`. `requestBody` is then its
   * text (its first part, when cut).
   */
  requestBodyTruncated?: true;
  /** True when a mock answered the call. */
  answered: boolean;
  /** The scenario whose mock answered (for a `default` fallback: `default`; for the test's own mock, the scenario it had selected). */
  scenarioId?: string;
  /** The variant whose overlay answered. */
  variant?: string;
  /** Which layer answered: the test's own mocks (`POST /__harness__/mocks`), the active variant's overlay, the active scenario, or the `default` fallback. */
  layer?: 'test' | 'variant' | 'scenario' | 'default';
  /** The answering mock's position in its list of mocks (for the test's own: in the list `GET /__harness__/mocks` returns, newest first). */
  mockIndex?: number;
  /** The answering mock's `id`, when it has one. */
  mockId?: string;
  /** The status answered (for a mock with `error`, none). */
  status?: number;
  /** The answering mock's `error` (a fault instead of an answer). */
  fault?: 'network' | 'reset' | 'timeout' | 'malformed';
  /** Milliseconds the mock's `delay` held the answer back. */
  delayMs?: number;
  /** For a sequence: the 0-based step served. */
  step?: number;
  /**
   * For an unanswered call: what happened to it (`unhandled`, or `allowHosts`). Unanswered calls
   * to loopback are not journaled: in-process test clients calling the app live there too.
   */
  unhandled?: 'passed-through' | 'failed' | 'passed-through (allowHosts)';
  /** Milliseconds from interception to the answer (or the decision to pass the call on), `delayMs` included. */
  durationMs: number;
  /**
   * With `createHarness({ contracts })`, on every answered call under an API document's servers:
   * what in the app's request or the mock's answer breaks the document, one line each
   * (`request.body.currency: missing: the schema requires it (POST /charges in payments.yaml)`);
   * `[]` when nothing does. Absent for calls under no document's servers.
   */
  contractViolations?: string[];
  /** For an unanswered call (and, with `journal.explainAnswered`, an answered one): why the nearest mocks did not answer. */
  nearMisses?: string[];
  /** For a streamed answer: how far its stream got, as of this read of the journal. */
  stream?: JournalStream;
}

/** What a socket entry (`kind`) says of its socket. */
export interface JournalSocket {
  /** The socket mock's `id`, else its place (`default.sockets[0]`). */
  id: string;
  /** Which socket of the test (`s1-3fa2`, `s2-3fa2`…: a count and the process's tag): the entries of one connection share it. */
  connection: string;
  /** The subprotocol chosen (`socket.open`). */
  protocol?: string;
  /** True when the socket was opened outside any test's request, so `default` answers it. */
  outsideTest?: true;
  /** A frame: `sent` by the app (or page), `received` by it. */
  direction?: 'sent' | 'received';
  opcode?: 'text' | 'binary';
  /** The frame's size in bytes. */
  size?: number;
  /** The frame: a text frame's text, a binary frame's bytes as base64; cut at `journal.maxBodyBytes`. */
  data?: string;
  /** True when `data` is cut (it was longer than `journal.maxBodyBytes`): it is then the frame's first part, as text or base64. */
  dataTruncated?: true;
  /** What answered or sent the frame: a rule (`on[0]`), `onConnect`, or `test` for a frame the test pushed. */
  rule?: string;
  /** A sent frame no rule matched: why each rule did not. */
  nearMisses?: string[];
  /** `socket.close`: the close code and reason, and who closed it (`error`: the mock dropped the connection). */
  code?: number;
  reason?: string;
  closedBy?: 'app' | 'mock' | 'test' | 'error';
}

/** A streamed answer's stream, in its journal entry. */
export interface JournalStream {
  /** Its name, as `waitForStream(id)` and `releaseStream(id)` take it: its mock's `id`, else its mock's place. */
  id: string;
  /** Chunks (or events) the answer has. */
  chunks: number;
  /** Chunks the app was sent so far. */
  delivered?: number;
  /** `streaming`, `held` (stopped at its `hold`), `complete`, `failed` (`failAfter`), `aborted` (by the test) or `cancelled` (the app stopped reading). */
  state?: string;
  /** Milliseconds it spent held. */
  heldMs?: number;
}

/** Which calls `getCalls` and `GET /__harness__/journal` return; every field narrows. */
export interface JournalFilter {
  /** Case-insensitive. */
  method?: string;
  /** A substring of the URL, or a pattern with `*` (any characters): `'*\/v1/charges'`. */
  url?: string;
  /** Only the calls no mock answered. */
  unanswered?: boolean;
  /** Only calls answered by the mock with this `id`. */
  mockId?: string;
}

/** How the journal records calls. */
export interface JournalOptions {
  /** @default true */
  enabled?: boolean;
  /** Calls kept per test ID; older ones are dropped first. @default 100 */
  maxEntries?: number;
  /** Request bodies larger than this are kept as their first part, as text. @default 8192 */
  maxBodyBytes?: number;
  /**
   * The most heap one entry may keep, in bytes (an estimate of what it retains, not what was
   * sent): a parsed body that would take more is kept as its text, cut to fit; over-long
   * headers and URLs are cut. @default 32768
   */
  maxEntryBytes?: number;
  /**
   * The most the journals of all tests in the store may keep together, in bytes (summed entry
   * sizes, as for `maxEntryBytes`). Over it, the oldest entries of the least recently used tests
   * are dropped, and a warning says so once. The in-memory store only: Redis bounds each
   * journal by `maxEntries` and its expiry. @default 67108864 (64 MiB)
   */
  maxTotalBytes?: number;
  /**
   * Header names whose values are replaced by `[redacted]`, on top of the defaults
   * (`authorization`, `cookie`, `proxy-authorization`, `x-api-key`, and names containing
   * `token`, `secret`, `password`, `api-key`, `signature` or `session`). `false` turns redaction off.
   */
  redactHeaders?: string[] | false;
  /** Also explain near misses for answered calls (costs time on every call). @default false */
  explainAnswered?: boolean;
}
