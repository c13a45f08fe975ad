import type { LlmApi, LlmChunking, LlmErrorAfter, LlmFinish, LlmResponse, LlmUsage, StreamHold, StreamTiming } from '../../types.js';
import { compileTemplate, type CompiledValue } from '../template.js';

/** A mock's `response.llm`, its templates compiled: rendered per call by `renderLlm`. */
export interface CompiledLlm {
  api: LlmApi;
  /** `{ text, toolCalls, reasoning }`: where templates may be. */
  content: CompiledValue;
  usage: LlmUsage | undefined;
  finish: LlmFinish | undefined;
  chunking: LlmChunking;
  timing: StreamTiming | undefined;
  /** In chunks of text, as `errorAfter.chunks` and `hold.afterChunks`: the render makes them chunk indexes. */
  failAfter: number | undefined;
  errorAfter: LlmErrorAfter | undefined;
  hold: StreamHold | undefined;
  /** The stream's name for the streams part (see `ReplyStream.id`). */
  id: string | undefined;
  /**
   * The request's parsed body, when a response function made this answer: the call's template
   * context has no body then (a function mock does not read it to match), yet the answer's form
   * depends on it.
   */
  requestBody?: unknown;
}

/** Compile a validated `llm`; `field` names it in definition errors (`response.llm.text`), `id` its stream. */
export function compileLlm(llm: LlmResponse, field: string, requestBody?: unknown, id?: string): CompiledLlm {
  // One compiled value, so a template in `text` and one in a tool's arguments are filled alike.
  const content = compileTemplate({ text: llm.text ?? '', toolCalls: llm.toolCalls ?? [], reasoning: llm.reasoning ?? '' }, field);
  return {
    api: llm.api,
    content,
    usage: llm.usage,
    finish: llm.finish,
    chunking: llm.chunking ?? 'word',
    timing: llm.timing,
    failAfter: llm.failAfter,
    errorAfter: llm.errorAfter,
    hold: llm.hold,
    id,
    ...(requestBody === undefined ? {} : { requestBody }),
  };
}
