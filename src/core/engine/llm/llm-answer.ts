import type { LlmChunking, LlmFinish } from '../../types.js';

/** An `llm` mock's answer for one call: templates filled in, every default decided. */
export interface LlmAnswer {
  text: string;
  toolCalls: readonly { id: string | undefined; name: string; arguments: string }[];
  reasoning: string;
  inputTokens: number;
  outputTokens: number;
  finish: LlmFinish;
  chunking: LlmChunking;
}

/** What the call asked for, as far as the answer's form depends on it. */
export interface LlmRequest {
  /** The request asked for a stream (`"stream": true`, `:streamGenerateContent`). */
  stream: boolean;
  /** The model the request named, echoed back as providers do. */
  model: string;
  /** The parsed JSON body (`undefined` when it is not an object). */
  body: Record<string, unknown> | undefined;
  url: URL;
}

/**
 * How a provider's answer goes out: one JSON body, or a stream of pre-encoded pieces with the
 * tokens of text each carries (`tokensIn`; 0 for events that carry none: start, stop, usage).
 */
export type LlmRendered = { json: unknown } | { chunks: string[]; tokens: number[]; contentType: string };

/** A renderer writes one provider's wire format. */
export type LlmRenderer = (answer: LlmAnswer, request: LlmRequest) => LlmRendered;

/** The provider's error event in the middle of a stream, as its SDK reads it (`llm.errorAfter`). */
export type LlmErrorEvent = (error: { message: string; type: string }, request: LlmRequest, sequenceNumber: number) => string;

/**
 * The tokens a streamed piece of text counts for `timing.tokensPerSecond`: about four
 * characters a token, as usage estimates count them, and at least one (a `'token'` piece is one).
 */
export function tokensIn(piece: string): number {
  return piece.length <= 4 ? 1 : Math.ceil(piece.length / 4);
}

let lastId = 0;

/**
 * An ID in a provider's style (`chatcmpl-…`, `msg_…`): unique within the process and
 * deterministic in a run, so nothing random leaks into snapshots.
 */
export function nextId(prefix: string): string {
  lastId += 1;
  return `${prefix}harness${lastId.toString().padStart(12, '0')}`;
}

/** The tool call's own ID, or a stable one from its position. */
export function toolCallId(answer: LlmAnswer, index: number, prefix: string): string {
  return answer.toolCalls[index]!.id ?? `${prefix}${index}`;
}

/** Tool arguments as an object, for APIs that send objects (Anthropic `input`, Gemini `args`). */
export function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Tool-call arguments cut into fragments, as providers stream them: never by words (JSON has few
 * spaces), so `'word'` and `'token'` both give pieces of four characters.
 */
export function argumentChunking(answer: LlmAnswer): LlmChunking {
  return typeof answer.chunking === 'object' ? answer.chunking : { chars: 4 };
}

/** One Server-Sent Event with its data as one line of JSON. Gemini's servers end events with CRLFs. */
export function sseEvent(event: string | undefined, data: unknown, newline = '\n'): string {
  const json = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event === undefined ? '' : `event: ${event}${newline}`}data: ${json}${newline}${newline}`;
}

export const SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8';

/** Seconds since the epoch, as `created` fields carry it. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
