/**
 * A WebSocket the harness answers, as a socket mock drives it: the server's end of a real
 * RFC 6455 connection (the bridge's `ws` server), or the browser's routed socket. The mock never
 * sees which.
 */
export interface SocketConnection {
  /** Send a text or binary frame; resolves once it is written. */
  send(data: string | Buffer, binary: boolean): Promise<void>;
  /** Close with a close frame. */
  close(code: number, reason: string): void;
  /** Drop the connection with no close frame (the client sees 1006). */
  drop(): void;
  /** Each frame the client sends. */
  onFrame(listener: (data: Buffer, binary: boolean) => void): void;
  /** Once, when the connection has closed: its code and reason, and who ended it. */
  onClose(listener: (code: number, reason: string, by: 'client' | 'mock') => void): void;
  /** True until it closes. */
  readonly isOpen: boolean;
}

/** The handshake a socket mock answers: what the client asked for. */
export interface SocketHandshake {
  /** The URL as the app opened it (`ws:`/`wss:`). */
  url: URL;
  /** The handshake's headers, the harness's own left out. */
  headers: Headers;
  /** The subprotocol chosen, if any. */
  protocol: string | undefined;
}

/** What the harness does with a WebSocket handshake a socket mock answers. */
export interface SocketAnswer {
  /** The subprotocol to choose, when the client offers it; `undefined` takes the client's first offer, if any. */
  readonly protocol: string | undefined;
  /** The handshake is done: run the socket mock on the connection. */
  open(connection: SocketConnection, handshake: SocketHandshake): void;
}
