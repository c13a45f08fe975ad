/*
 * The mock format's WebSockets: what a scenario's `sockets` entries say a socket does when the
 * app (or the test's page) opens one. Re-exported by types.ts, with the rest of the format.
 */

/**
 * What a socket mock sends: a string as a text frame, `{ json }` as a text frame of JSON,
 * `{ base64 }` as a binary frame. Strings (also inside `json`) may hold templates: `{{body.id}}`
 * reads the frame that matched, `{{params.x}}`, `{{query.x}}`, `{{headers.x}}` the handshake,
 * `{{state.x}}` the test's state.
 */
export type SocketFrame = string | { json: unknown } | { base64: string };

/** One step a socket mock takes, in order: each is exactly one of these keys. */
export type SocketStep =
  /** Send a frame to the app. */
  | { send: SocketFrame }
  /** Wait this many milliseconds before the next step (`createHarness({ timing: 'instant' })` skips it). */
  | { delay: number }
  /** Close the socket with a close frame. @default code 1000 */
  | { close: { code?: number; reason?: string } }
  /** Drop the connection without a close frame (the app sees an abnormal closure, 1006); the text goes to the journal. */
  | { error: string | true }
  /** Merge these keys into the test's state (templates allowed, as a mock's `afterResponse.setState`). */
  | { setState: Record<string, unknown> };

/**
 * Which frames the app sends a rule answers: `{ json }` a JSON frame that contains this subset
 * (as a mock's `match.body`), `{ text }` a text frame equal to it, `{ regex }` a text frame the
 * expression matches, `{ binary }` a binary frame with exactly these bytes (base64).
 */
export type SocketMatch = { json: unknown } | { text: string } | { regex: string | { source: string; flags?: string } } | { binary: string };

/** A rule: the steps a frame the app sends gets, when it matches. The first rule that matches answers. */
export interface SocketRule {
  match: SocketMatch;
  steps: SocketStep[];
}

/**
 * A WebSocket the harness answers instead of the real server: the app's client (the `ws`
 * package, the global `WebSocket`, undici's) does a real RFC 6455 handshake with the harness.
 * A socket takes the test ID of the request it was opened in and keeps it for its whole life.
 */
export interface SocketMock {
  /** For journal entries, `waitForFrame` and the inspector: a name for this socket mock. */
  id?: string;
  /** The socket's URL, as a mock's `url` pattern: `'wss://stream.example.com/v1/prices'`, `'*\/ws/:room'`, a RegExp. */
  url: string | RegExp | { regex: { source: string; flags?: string } };
  /** The subprotocol it takes (`Sec-WebSocket-Protocol`): the socket mock answers only a client that offers it. */
  protocol?: string;
  /** Steps run as soon as the socket opens. */
  onConnect?: SocketStep[];
  /** What the frames the app sends get. */
  on?: SocketRule[];
  /** A frame no rule matches: ignored (journaled with the rules' near misses), or the socket is closed (1008). @default 'ignore' */
  unmatched?: 'ignore' | 'close';
}
