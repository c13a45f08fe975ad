import type { RecordedSocket } from '../core/recording/recorded-exchange.js';

export type { RecordedSocket } from '../core/recording/recorded-exchange.js';

/**
 * Headers as a recorder has them: a Fetch `Headers`, a record (node's `IncomingHttpHeaders`
 * shape: a list for a repeated header such as `set-cookie`), or name/value pairs (HAR).
 */
export type RecordedHeaders = Headers | Record<string, string | readonly string[] | undefined> | readonly (readonly [string, string])[];

/** The request half of one recorded call. */
export interface RecordedRequest {
  /** Any case: `get` and `GET` are the same. */
  method: string;
  /** The absolute URL called, query included. */
  url: string;
  headers: RecordedHeaders;
  /** The bytes sent (or their text); absent or empty for no body. */
  body?: Uint8Array | string;
}

/** The response half of one recorded call. */
export interface RecordedResponse {
  status: number;
  headers: RecordedHeaders;
  /**
   * The body as it came over the wire (still gzip/deflate/brotli-compressed when
   * `content-encoding` says so) or already decoded: both are read. Absent or empty for no body.
   */
  body?: Uint8Array | string;
  /**
   * A streamed answer's body as it arrived, chunk by chunk, each `atMs` milliseconds after the
   * headers (the recorder in the app keeps these; `body` is them joined). A Server-Sent Events or
   * newline-delimited JSON answer with chunks is drafted as `stream.chunks` with `timing: 'recorded'`.
   */
  chunks?: { body: Uint8Array | string; atMs: number }[];
}

/**
 * One call the app made and what the upstream answered, the unit of recording: the recorder
 * in the running app and the HAR importer both produce these, and `scenarioFromTraffic` turns
 * a list of them into a scenario.
 */
export interface RecordedExchange {
  request: RecordedRequest;
  response: RecordedResponse;
  /** A WebSocket (`response.status` 101): its frames both ways with their times, drafted as a scenario's `sockets` entry. */
  socket?: RecordedSocket;
}
