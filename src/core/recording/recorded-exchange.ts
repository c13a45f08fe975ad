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
}
