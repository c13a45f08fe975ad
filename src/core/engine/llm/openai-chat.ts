import type { LlmFinish } from '../../types.js';
import { argumentChunking, nextId, nowSeconds, SSE_CONTENT_TYPE, sseEvent, tokensIn, toolCallId, type LlmAnswer, type LlmErrorEvent, type LlmRendered, type LlmRenderer, type LlmRequest } from './llm-answer.js';
import { splitText } from './split-text.js';

/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`): a `chat.completion` JSON body, or with
 * `"stream": true` a stream of `chat.completion.chunk` events ended by `data: [DONE]`.
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 * Chat Completions carries no reasoning text: `reasoning` only counts in `reasoning_tokens`.
 */

const FINISH: Record<LlmFinish, string> = { stop: 'stop', length: 'length', tool_calls: 'tool_calls', content_filter: 'content_filter' };

function usageOf(answer: LlmAnswer) {
  return {
    prompt_tokens: answer.inputTokens,
    completion_tokens: answer.outputTokens,
    total_tokens: answer.inputTokens + answer.outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: answer.reasoning === '' ? 0 : Math.ceil(answer.reasoning.length / 4), audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function toolCallsOf(answer: LlmAnswer) {
  return answer.toolCalls.map((call, i) => ({ id: toolCallId(answer, i, 'call_'), type: 'function', function: { name: call.name, arguments: call.arguments } }));
}

function completion(answer: LlmAnswer, request: LlmRequest) {
  const message: Record<string, unknown> = {
    role: 'assistant',
    // With tool calls and no text, the API sends `null` content.
    content: answer.text === '' && answer.toolCalls.length > 0 ? null : answer.text,
    refusal: null,
    annotations: [],
  };
  if (answer.toolCalls.length > 0) message['tool_calls'] = toolCallsOf(answer);
  return {
    id: nextId('chatcmpl-'),
    object: 'chat.completion',
    created: nowSeconds(),
    model: request.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: FINISH[answer.finish] }],
    usage: usageOf(answer),
    service_tier: 'default',
    system_fingerprint: null,
  };
}

/**
 * The chunks in the API's order: the role, text deltas, each tool call (its name and ID first,
 * then argument fragments), the finish reason, the usage (only when the request set
 * `stream_options.include_usage`, as the API does), then `[DONE]`.
 */
function chunks(answer: LlmAnswer, request: LlmRequest): LlmRendered {
  const options = request.body?.['stream_options'] as { include_usage?: unknown } | undefined;
  const includeUsage = options?.include_usage === true;
  const head = { id: nextId('chatcmpl-'), object: 'chat.completion.chunk', created: nowSeconds(), model: request.model, service_tier: 'default', system_fingerprint: null };
  const out: string[] = [];
  const tokens: number[] = [];
  const push = (delta: Record<string, unknown>, finish: string | null = null, piece?: string) => {
    out.push(sseEvent(undefined, { ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(includeUsage ? { usage: null } : {}) }));
    tokens.push(piece === undefined ? 0 : tokensIn(piece));
  };
  push({ role: 'assistant', content: '', refusal: null });
  for (const piece of splitText(answer.text, answer.chunking)) push({ content: piece }, null, piece);
  answer.toolCalls.forEach((call, index) => {
    push({ tool_calls: [{ index, id: toolCallId(answer, index, 'call_'), type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of splitText(call.arguments, argumentChunking(answer))) push({ tool_calls: [{ index, function: { arguments: piece } }] }, null, piece);
  });
  push({}, FINISH[answer.finish]);
  if (includeUsage) out.push(sseEvent(undefined, { ...head, choices: [], usage: usageOf(answer) }));
  out.push(sseEvent(undefined, '[DONE]'));
  while (tokens.length < out.length) tokens.push(0);
  return { chunks: out, tokens, contentType: SSE_CONTENT_TYPE };
}

/**
 * An error in the middle of the stream: a chunk whose `error` the openai SDK throws as an
 * `APIError` (its `message`, `type`), as the API sends when a stream fails part way.
 */
export const openaiChatError: LlmErrorEvent = ({ message, type }) => sseEvent(undefined, { error: { message, type, param: null, code: null } });

export const renderOpenaiChat: LlmRenderer = (answer, request) =>
  request.stream ? chunks(answer, request) : { json: completion(answer, request) };
