import type { RecordedChunk } from '../core/types.js';
import { parseEventStream } from './parse-event-stream.js';
import { isPlainObject, parseJsonContainer } from './plain-data.js';

/** One chunk of a streamed answer as a recorder saw it arrive: its bytes (or text), `atMs` after the headers. */
export interface RecordedBodyChunk {
  body: Uint8Array | string;
  atMs: number;
}

/** Media types drafted as a recorded stream when their chunks were recorded: Server-Sent Events, newline-delimited JSON. */
export function isStreamedType(mediaType: string): boolean {
  return ['text/event-stream', 'application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines'].includes(mediaType);
}

/**
 * The chunks' texts, decoded as one UTF-8 stream: a character split between two chunks goes
 * whole with the later one, so every text is whole. `undefined` when the bytes are not UTF-8.
 */
export function decodeChunkTexts(chunks: readonly RecordedBodyChunk[]): string[] | undefined {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    const texts = chunks.map(({ body }) => (typeof body === 'string' ? body : decoder.decode(body, { stream: true })));
    const rest = decoder.decode();
    if (rest !== '') texts[texts.length - 1] += rest;
    return texts.some((text) => text.includes('\u0000')) ? undefined : texts;
  } catch {
    return undefined;
  }
}

/**
 * `texts` with every `from` of `pairs` replaced by its `to`, found in the texts joined, so that
 * a value split between two chunks is found too; the chunk boundaries stay where they were,
 * except one inside a replaced value, which moves to its end (the replacement goes whole into the
 * earlier chunk). The same number of chunks comes back. `found` lists the pairs replaced.
 */
export function replaceAcrossChunks(texts: readonly string[], pairs: readonly (readonly [from: string, to: string])[]): { texts: string[]; found: number[] } {
  let joined = texts.join('');
  let at = 0;
  let ends = texts.map((text) => (at += text.length));
  const found: number[] = [];
  pairs.forEach(([from, to], pair) => {
    if (from === '' || !joined.includes(from)) return;
    found.push(pair);
    const starts: number[] = [];
    for (let i = joined.indexOf(from); i !== -1; i = joined.indexOf(from, i + from.length)) starts.push(i);
    const grow = to.length - from.length;
    ends = ends.map((end) => {
      let shift = 0;
      for (const start of starts) {
        if (end <= start) break;
        if (end < start + from.length) return start + shift + to.length;
        shift += grow;
      }
      return end + shift;
    });
    joined = joined.split(from).join(to);
  });
  let start = 0;
  return {
    texts: ends.map((end) => {
      const text = joined.slice(start, end);
      start = end;
      return text;
    }),
    found,
  };
}

/** True for a `stream` drafted from recorded chunks (`timing: 'recorded'`, chunks of `{ text, atMs }`). */
export function isRecordedStream(stream: unknown): stream is { timing: 'recorded'; chunks: RecordedChunk[] } {
  return isPlainObject(stream) && stream.timing === 'recorded' && Array.isArray(stream.chunks) && stream.chunks.every((chunk) => isPlainObject(chunk) && typeof chunk.text === 'string');
}

/** A recorded stream's chunk texts joined: what the client read, where a value split between chunks is whole. */
export function joinedChunkText(stream: { chunks: readonly RecordedChunk[] }): string {
  return stream.chunks.map(({ text }) => text).join('');
}

/**
 * The JSON values a streamed text carries: each Server-Sent Event's data, or each line of
 * newline-delimited JSON, parsed where it is a JSON object or array.
 */
export function streamedJsonValues(text: string, mediaType: string): unknown[] {
  const datas = mediaType === 'text/event-stream' ? parseEventStream(text).map(({ data }) => data) : text.split(/\r?\n/);
  return datas.map((data) => parseJsonContainer(data)).filter((value) => value !== undefined);
}
