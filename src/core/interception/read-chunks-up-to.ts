/** The first part of a request body, and whether that is all of it. */
export interface BodyHead {
  bytes: Uint8Array;
  /** False when the body goes on past what was read. */
  complete: boolean;
}

/** What `readChunksUpTo` read: the chunks, in order, and whether the source ended. */
export interface ChunksRead {
  chunks: Uint8Array[];
  complete: boolean;
}

/** Anything that hands out chunks one at a time: an async iterator, or a web stream's reader. */
interface ChunkSource {
  next(): Promise<{ done?: boolean; value?: unknown }>;
}

/** A chunk as bytes: streams hand out buffers, strings or typed arrays. */
export function toBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return new Uint8Array(chunk as ArrayBuffer);
}

/**
 * Read chunks until the source ends or more than `limit` bytes were read: what is kept is
 * bounded by `limit` plus one chunk, whatever the body's framing. The source is left where
 * reading stopped (not cancelled): the rest may still be sent on.
 */
export async function readChunksUpTo(source: ChunkSource, limit: number): Promise<ChunksRead> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (total <= limit) {
    const next = await source.next();
    if (next.done) return { chunks, complete: true };
    const chunk = toBytes(next.value);
    chunks.push(chunk);
    total += chunk.byteLength;
  }
  return { chunks, complete: false };
}

/** The chunks as one array (no copy for a single chunk). */
export function joinChunks(chunks: readonly Uint8Array[]): Uint8Array {
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * The async iterator of a body that arrives over time (a Node `Readable`, an async iterable, a
 * web `ReadableStream`); `undefined` for a body already in memory (a string, bytes, a Blob, form
 * data), which costs nothing more to read whole.
 */
export function streamOf(body: unknown): AsyncIterator<unknown> | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  if (Symbol.asyncIterator in body) return (body as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  if (typeof (body as ReadableStream).getReader === 'function') {
    const reader = (body as ReadableStream).getReader();
    return { next: () => reader.read() as Promise<IteratorResult<unknown>> };
  }
  return undefined;
}
