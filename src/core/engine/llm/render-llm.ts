import type { LlmApi } from '../../types.js';
import type { TemplateContext } from '../template.js';
import { renderAnthropicMessages } from './anthropic-messages.js';
import type { CompiledLlm } from './compile-llm.js';
import { renderGemini } from './gemini.js';
import type { LlmAnswer, LlmRenderer, LlmRequest } from './llm-answer.js';
import { renderOpenaiChat } from './openai-chat.js';
import { renderOpenaiResponses } from './openai-responses.js';

const RENDERERS: Record<LlmApi, LlmRenderer> = {
  'openai.chat': renderOpenaiChat,
  'openai.responses': renderOpenaiResponses,
  'anthropic.messages': renderAnthropicMessages,
  gemini: renderGemini,
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
 * An `llm` answer in its provider's wire format, for this call: a JSON body, or the stream's
 * pieces as bytes, one chunk per event (each event reaches the client as its own write).
 */
export function renderLlm(llm: CompiledLlm, context: TemplateContext): { contentType: string; text: string | null; chunks: Uint8Array[] | undefined } {
  const request = readRequest(llm, context);
  const rendered = RENDERERS[llm.api](answerFor(llm, context, request), request);
  if ('json' in rendered) return { contentType: 'application/json', text: JSON.stringify(rendered.json), chunks: undefined };
  return { contentType: rendered.contentType, text: null, chunks: rendered.chunks.map((chunk) => encoder.encode(chunk)) };
}
