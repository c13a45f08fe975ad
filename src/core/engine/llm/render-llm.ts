import type { LlmReplyAnswer, ReplyStream } from '../../interception/mock-reply.js';
import type { LlmApi } from '../../types.js';
import { streamSchedule } from '../stream-schedule.js';
import type { TemplateContext } from '../template.js';
import { anthropicMessagesError, renderAnthropicMessages } from './anthropic-messages.js';
import type { CompiledLlm } from './compile-llm.js';
import { geminiError, renderGemini } from './gemini.js';
import type { LlmAnswer, LlmErrorEvent, LlmRenderer, LlmRequest } from './llm-answer.js';
import { openaiChatError, renderOpenaiChat } from './openai-chat.js';
import { openaiResponsesError, renderOpenaiResponses } from './openai-responses.js';

const RENDERERS: Record<LlmApi, LlmRenderer> = {
  'openai.chat': renderOpenaiChat,
  'openai.responses': renderOpenaiResponses,
  'anthropic.messages': renderAnthropicMessages,
  gemini: renderGemini,
};

/** Each provider's error event, and what `errorAfter` sends when it names no type or message: an overloaded server, in the provider's words. */
const ERRORS: Record<LlmApi, { event: LlmErrorEvent; type: string; message: string }> = {
  'openai.chat': { event: openaiChatError, type: 'server_error', message: 'The server had an error while processing your request. Sorry about that!' },
  'openai.responses': { event: openaiResponsesError, type: 'server_error', message: 'The server had an error while processing your request. Sorry about that!' },
  'anthropic.messages': { event: anthropicMessagesError, type: 'overloaded_error', message: 'Overloaded' },
  gemini: { event: geminiError, type: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
};

/** Gemini names the model and the method in the path: `/v1beta/models/gemini-2.5-flash:streamGenerateContent`. */
const GEMINI_PATH = /\/models\/([^/:]+):(\w+)$/;

/** What the call asked for: a stream or not, and which model. The same mock answers both forms. */
function readRequest(llm: CompiledLlm, context: TemplateContext): LlmRequest {
  const { api } = llm;
  const read = context.body ?? llm.requestBody;
  const body = typeof read === 'object' && read !== null && !Array.isArray(read) ? (read as Record<string, unknown>) : undefined;
  if (api === 'gemini') {
    const found = GEMINI_PATH.exec(context.url.pathname);
    return { stream: found?.[2] === 'streamGenerateContent', model: found === null ? '' : decodeURIComponent(found[1]!), body, url: context.url };
  }
  return { stream: body?.['stream'] === true, model: typeof body?.['model'] === 'string' ? body['model'] : '', body, url: context.url };
}

/** About four characters a token: what usage reports when the mock gives no counts. */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The answer for this call: templates filled in, tool arguments as JSON text, usage and finish decided. */
function answerFor(llm: CompiledLlm, context: TemplateContext, request: LlmRequest): LlmAnswer {
  const content = llm.content.evaluate(context) as { text: unknown; toolCalls: { name: unknown; arguments: unknown; id?: unknown }[]; reasoning: unknown };
  const toolCalls = content.toolCalls.map((call) => ({
    id: typeof call.id === 'string' ? call.id : undefined,
    name: String(call.name),
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
  const text = String(content.text);
  const reasoning = String(content.reasoning);
  const written = text.length + toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  return {
    text,
    toolCalls,
    reasoning,
    inputTokens: llm.usage?.inputTokens ?? (request.body === undefined ? 0 : estimateTokens(JSON.stringify(request.body))),
    outputTokens: llm.usage?.outputTokens ?? Math.max(1, Math.ceil(written / 4)),
    finish: llm.finish ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    chunking: llm.chunking,
  };
}

const encoder = new TextEncoder();

/**
 * Where the stream stands after `n` chunks of text (those with tokens), as a chunk index: the
 * index of the next chunk of text, or the one after the last; the events between two chunks of
 * text (a block's stop, the next one's start) go before it. Nothing has text: the end.
 */
export function afterTextChunks(tokens: readonly number[], n: number): number {
  let seen = 0;
  let afterLast = tokens.length;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] === 0) continue;
    if (seen === n) return i;
    seen++;
    afterLast = i + 1;
  }
  return afterLast;
}

/** The stream of an `llm` answer: its chunks (cut by `errorAfter`, with the provider's error event), schedule, `failAfter` and `hold` as chunk indexes. */
function llmStream(llm: CompiledLlm, request: LlmRequest, rendered: { chunks: string[]; tokens: number[] }): ReplyStream {
  let { chunks, tokens } = rendered;
  if (llm.errorAfter !== undefined) {
    const cut = afterTextChunks(tokens, llm.errorAfter.chunks);
    const { event, type, message } = ERRORS[llm.api];
    chunks = [...chunks.slice(0, cut), event({ type: llm.errorAfter.type ?? type, message: llm.errorAfter.message ?? message }, request, cut)];
    tokens = [...tokens.slice(0, cut), 0];
  }
  const stream: ReplyStream = {
    chunks: chunks.map((chunk) => encoder.encode(chunk)),
    intervalMs: llm.timing?.intervalMs ?? 0,
    failAfter: llm.failAfter === undefined ? undefined : afterTextChunks(tokens, llm.failAfter),
  };
  const schedule = streamSchedule(llm.timing, tokens);
  if (schedule !== undefined) stream.schedule = schedule;
  if (llm.id !== undefined) stream.id = llm.id;
  if (llm.hold !== undefined) stream.hold = { afterChunks: afterTextChunks(tokens, llm.hold.afterChunks) };
  return stream;
}

/**
 * An `llm` answer in its provider's wire format, for this call: a JSON body, or the stream's
 * pieces as bytes, one chunk per event (each event reaches the client as its own write), on the
 * answer's `timing`; and the answer as data (`answer`), unless `errorAfter` or `failAfter` cut
 * the stream short, so the app never gets it whole.
 */
export function renderLlm(llm: CompiledLlm, context: TemplateContext): { contentType: string; text: string | null; chunks: readonly Uint8Array[] | undefined; stream: ReplyStream | undefined; answer: LlmReplyAnswer | undefined } {
  const request = readRequest(llm, context);
  const answer = answerFor(llm, context, request);
  const rendered = RENDERERS[llm.api](answer, request);
  const whole: LlmReplyAnswer = { api: llm.api, text: answer.text, toolCalls: answer.toolCalls, requestBody: request.body };
  if ('json' in rendered) return { contentType: 'application/json', text: JSON.stringify(rendered.json), chunks: undefined, stream: undefined, answer: whole };
  const stream = llmStream(llm, request, rendered);
  const cut = llm.errorAfter !== undefined || llm.failAfter !== undefined;
  return { contentType: rendered.contentType, text: null, chunks: stream.chunks, stream, answer: cut ? undefined : whole };
}
