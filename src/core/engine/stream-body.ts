import type { ReplyStream } from '../interception/mock-reply.js';
import type { MockStream, RecordedChunk } from '../types.js';
import { streamSchedule } from './stream-schedule.js';
import { compileTemplate, constant, isConstant, type CompiledValue, type TemplateContext } from './template.js';

/** A mock's `stream` with the templates in its chunks and events compiled. */
export interface CompiledStream {
  kind: 'chunks' | 'events';
  items: readonly CompiledValue[];
  intervalMs: number;
  failAfter: number | undefined;
  /** The content type sent unless the mock's headers set one. */
  contentType: string;
  /** The encoded chunks, when no template makes them depend on the call. */
  fixed: readonly Uint8Array[] | undefined;
  /** When each chunk goes (a chunk is one token: the schedule is the same for every call). */
  schedule: readonly number[] | undefined;
  /** The stream's name for the streams part (see `ReplyStream.id`). */
  id: string | undefined;
  hold: { afterChunks: number } | undefined;
}

const encoder = new TextEncoder();

/** A chunk as bytes: a string as it is, anything else as one line of JSON (newline-delimited JSON). */
function encodeChunk(value: unknown): Uint8Array {
  return encoder.encode(typeof value === 'string' ? value : `${JSON.stringify(value)}\n`);
}

/**
 * One Server-Sent Event: `event:` and `id:` lines when given, the data (JSON unless a string)
 * as one `data:` line per line, and the blank line that ends the event.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
function encodeEvent(value: unknown): Uint8Array {
  const { event, id, data } = value as { event?: unknown; id?: unknown; data?: unknown };
  let text = '';
  if (event !== undefined) text += `event: ${String(event).replace(/[\r\n]+/g, ' ')}\n`;
  if (id !== undefined) text += `id: ${String(id).replace(/[\r\n]+/g, ' ')}\n`;
  const payload = typeof data === 'string' ? data : JSON.stringify(data ?? null);
  for (const line of payload.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return encoder.encode(`${text}\n`);
}

/**
 * A recorded stream's schedule: each chunk's `atMs` divided by `replaySpeed`, in thousandths of
 * a millisecond; `undefined` when every chunk goes at once.
 */
export function recordedSchedule(chunks: readonly RecordedChunk[], replaySpeed = 1): number[] | undefined {
  const schedule = chunks.map(({ atMs }) => Math.round((atMs / replaySpeed) * 1000) / 1000);
  return schedule.some((at) => at > 0) ? schedule : undefined;
}

/** Compile a mock's `stream`; `field` names it in definition errors, `id` names the stream (see `ReplyStream.id`). */
export function compileStream(stream: MockStream, field: string, id?: string): CompiledStream {
  const kind = stream.events !== undefined ? 'events' : 'chunks';
  const recorded = stream.timing === 'recorded' ? (stream.chunks as RecordedChunk[]) : undefined;
  const source: readonly unknown[] = recorded?.map(({ text }) => text) ?? stream.events ?? stream.chunks ?? [];
  // A recorded chunk is sent as it was recorded: its text holds no templates.
  const items = source.map((item, i) => (recorded !== undefined ? constant(item) : compileTemplate(item, `${field}.${kind}[${i}]`)));
  const encode = kind === 'events' ? encodeEvent : encodeChunk;
  const timing = stream.timing === 'recorded' ? undefined : stream.timing;
  const intervalMs = stream.intervalMs ?? timing?.intervalMs ?? 0;
  return {
    kind,
    items,
    intervalMs,
    failAfter: stream.failAfter,
    // `stream.intervalMs` is `timing.intervalMs` (the schema refuses both); a recorded stream goes at its chunks' own times.
    schedule: Object.freeze(recorded !== undefined ? recordedSchedule(recorded, stream.replaySpeed) : streamSchedule(stream.intervalMs === undefined ? timing : { ...timing, intervalMs }, items.length)),
    id,
    hold: stream.hold,
    contentType: kind === 'events' ? 'text/event-stream; charset=utf-8' : source.every((item) => typeof item === 'string') ? 'text/plain; charset=utf-8' : 'application/x-ndjson',
    fixed: items.every(isConstant) ? items.map((item) => encode(item.evaluate(undefined as unknown as TemplateContext))) : undefined,
  };
}

/** The chunks to send for this call, templates filled in. */
export function buildReplyStream(stream: CompiledStream, context: TemplateContext): ReplyStream {
  const encode = stream.kind === 'events' ? encodeEvent : encodeChunk;
  const chunks = stream.fixed ?? stream.items.map((item) => encode(item.evaluate(context)));
  const reply: ReplyStream = { chunks, intervalMs: stream.intervalMs, failAfter: stream.failAfter };
  if (stream.schedule !== undefined) reply.schedule = stream.schedule;
  if (stream.id !== undefined) reply.id = stream.id;
  if (stream.hold !== undefined) reply.hold = stream.hold;
  return reply;
}

/** True when a compiled stream reads the request body. */
export function streamReadsBody(stream: CompiledStream | undefined): boolean {
  return stream?.items.some((item) => item.readsBody) ?? false;
}
