/*
 * The mock format's streamed answers: a stream of chunks or events, an LLM provider's answer,
 * and how either is paced and held. Re-exported by types.ts, with the rest of the format.
 */

/**
 * A streamed body: `chunks` (strings as they are, other values as one line of JSON each) or
 * `events` (Server-Sent Events), exactly one of them. Strings in them may contain templates.
 * With `timing: 'recorded'` every chunk is a `RecordedChunk` (`{ text, atMs }`), sent as its text
 * (no templates) at its time: what a recording drafts for a streamed answer.
 */
export interface MockStream {
  /** The chunks; with `timing: 'recorded'`, `RecordedChunk`s only. */
  chunks?: unknown[];
  /** Each becomes `event:`/`id:` lines and `data:` (JSON unless a string); sent as `text/event-stream`. */
  events?: { event?: string; data: unknown; id?: string }[];
  /** Milliseconds between two chunks or events, as `timing.intervalMs` (give one of the two). @default 0 */
  intervalMs?: number;
  /** Drop the connection after this many chunks or events (the client sees the body fail part way). */
  failAfter?: number;
  /**
   * When each chunk or event goes: seeded, so the same mock sends on the same schedule every
   * time; or `'recorded'`: each chunk (a `RecordedChunk`) at its own `atMs`, divided by `replaySpeed`.
   */
  timing?: StreamTiming | 'recorded';
  /**
   * With `timing: 'recorded'`: how many times faster than recorded the chunks go (each `atMs`
   * is divided by it): 2 halves every offset, 0.5 doubles them. @default 1
   */
  replaySpeed?: number;
  /** Stop after this many chunks or events until the test lets the stream go (the streams endpoint). */
  hold?: StreamHold;
}

/**
 * When a stream's chunks go, as offsets from its headers: the first at `firstMs`, each next one
 * a pause later (`intervalMs`, or its tokens at `tokensPerSecond`). `jitter` varies every pause
 * by a factor drawn in [1 - jitter, 1 + jitter] from a generator seeded with `seed`, so a mock and
 * its seed always give the same schedule. `createHarness({ timing: 'instant' })` and
 * `HARNESS_TIMING=instant` send every chunk at once.
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/mock-format.md#stream-timing
 */
export interface StreamTiming {
  /** Milliseconds from the headers to the first chunk (time to first token). @default 0 */
  firstMs?: number;
  /** Milliseconds between two chunks. Exclusive with `tokensPerSecond`. @default 0 */
  intervalMs?: number;
  /**
   * Pace by tokens: a chunk comes its token count / tokensPerSecond after the one before. A
   * plain chunk or event is one token; an `llm` chunk has the tokens of the text it carries
   * (about four characters a token; one for a `'token'` piece), and one that carries no text
   * (start, stop, usage events) follows at once. Exclusive with `intervalMs`.
   */
  tokensPerSecond?: number;
  /** How much each pause varies, as a fraction: 0.2 makes each one 80% to 120% of its length. @default 0 */
  jitter?: number;
  /** Seeds the jitter. @default 0 */
  seed?: number;
}

/**
 * One chunk of a recorded stream (`stream.chunks` with `timing: 'recorded'`): its text, sent
 * exactly as it is (a `{{` in it is no template), `atMs` milliseconds after the response's
 * headers, as the upstream sent it. Offsets never go down from one chunk to the next.
 */
export interface RecordedChunk {
  text: string;
  /** Milliseconds from the response's headers to this chunk, as recorded (divided by `stream.replaySpeed`). */
  atMs: number;
}

/** Where a stream stops until the test releases, steps or aborts it. */
export interface StreamHold {
  /** Chunks sent before the hold (for `llm`, chunks that carry text; 0 holds before the first). */
  afterChunks: number;
}

/** A provider's own error event in the middle of an `llm` stream. */
export interface LlmErrorAfter {
  /** How many chunks of text go out before the error event. */
  chunks: number;
  /** The error's message. @default the provider's own wording for an overloaded server */
  message?: string;
  /**
   * The error's type in the provider's words. @default 'server_error' (OpenAI),
   * 'overloaded_error' (Anthropic), 'UNAVAILABLE' (Gemini)
   */
  type?: string;
}

/** The provider API whose wire format an `llm` answer is written in. */
export type LlmApi = 'openai.chat' | 'openai.responses' | 'anthropic.messages' | 'gemini';

/** One tool (function) call in an `llm` answer. */
export interface LlmToolCall {
  name: string;
  /** The call's arguments: an object, or a string holding a JSON object (sent as it is where the API sends text). */
  arguments: unknown;
  /** The provider's call ID; a stable one (`call_0`, `toolu_0`, …) when left out. */
  id?: string;
}

/** Token counts an `llm` answer reports; each defaults to an estimate (about 4 characters a token). */
export interface LlmUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** Why the model stopped, in one vocabulary; each provider's own word is sent (`end_turn`, `STOP`, …). */
export type LlmFinish = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/**
 * How streamed text is cut into deltas: `'word'` (each word with the space after it), `'token'`
 * (words cut into pieces of at most 4 characters, about a model token), or `{ chars }` pieces.
 */
export type LlmChunking = 'token' | 'word' | { chars: number };

/**
 * A model's answer as data (`response.llm`). The request decides the form: its streaming flag
 * gives the provider's event stream, else the provider's JSON body. `text` may hold templates.
 */
export interface LlmResponse {
  api: LlmApi;
  /** The assistant's text. */
  text?: string;
  toolCalls?: LlmToolCall[];
  /** Reasoning text, where the API carries it (Responses: a reasoning summary; Anthropic: a thinking block; Gemini: a thought part). */
  reasoning?: string;
  usage?: LlmUsage;
  /** @default 'tool_calls' when there are tool calls, else 'stop' */
  finish?: LlmFinish;
  /** @default 'word' */
  chunking?: LlmChunking;
  /** When each chunk of the stream goes (see `StreamTiming`). */
  timing?: StreamTiming;
  /** Drop the connection after this many chunks of text. Exclusive with `errorAfter`. */
  failAfter?: number;
  /** Send the provider's own error event after this many chunks of text; the SDK throws it. */
  errorAfter?: LlmErrorAfter;
  /** Stop after this many chunks of text until the test lets the stream go. */
  hold?: StreamHold;
}
