/** How a test records: `missing` lets its scenario answer what it can and records the rest; `all` records every call. */
export type RecordMode = 'missing' | 'all';

/** One call that went to the real upstream while its test was recording: what was sent and what came back. */
export interface RecordedExchange {
  request: { method: string; url: string; headers: Record<string, string>; body?: string; bodyBase64?: string };
  response: {
    status: number;
    headers: Record<string, string>;
    body?: string;
    bodyBase64?: string;
    /** A streamed answer's chunks as they arrived (the body is them joined), each `atMs` after the headers. */
    chunks?: { body?: string; bodyBase64?: string; atMs: number }[];
  };
  /** A WebSocket passed on while its test recorded (`response.status` 101): its frames both ways, in order. */
  socket?: RecordedSocket;
}

/** A recorded WebSocket's life: each frame with its direction and its time from the handshake, then how it closed. */
export interface RecordedSocket {
  /** The subprotocol the server chose. */
  protocol?: string;
  frames: { direction: 'sent' | 'received'; text?: string; base64?: string; atMs: number }[];
  /** Who closed it (`app`, `server`), with the code and reason. */
  close?: { by: 'app' | 'server'; code: number; reason: string; atMs: number };
}
