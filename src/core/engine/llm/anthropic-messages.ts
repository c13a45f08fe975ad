import type { LlmFinish } from '../../types.js';
import { argumentChunking, argumentsObject, nextId, SSE_CONTENT_TYPE, sseEvent, tokensIn, toolCallId, type LlmAnswer, type LlmErrorEvent, type LlmRendered, type LlmRenderer, type LlmRequest } from './llm-answer.js';
import { splitText } from './split-text.js';

/**
 * Anthropic Messages (`POST /v1/messages`): a `message` JSON body, or with `"stream": true` the
 * events `message_start`, `ping`, per content block `content_block_start` / `_delta` / `_stop`,
 * then `message_delta` (stop reason, output tokens) and `message_stop`.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 * Blocks come in the API's order: thinking (`reasoning`), text, tool_use.
 */

const STOP_REASON: Record<LlmFinish, string> = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use', content_filter: 'refusal' };

/**
 * A thinking block's signature is opaque to clients (the API checks it when the block is sent
 * back); this placeholder only has the right form.
 */
const SIGNATURE = 'c2NlbmFyaW8taGFybmVzcyB0aGlua2luZyBzaWduYXR1cmU=';

type Block = Record<string, unknown> & { type: string };

function blocksOf(answer: LlmAnswer): Block[] {
  const blocks: Block[] = [];
  if (answer.reasoning !== '') blocks.push({ type: 'thinking', thinking: answer.reasoning, signature: SIGNATURE });
  if (answer.text !== '' || answer.toolCalls.length === 0) blocks.push({ type: 'text', text: answer.text, citations: null });
  answer.toolCalls.forEach((call, i) => blocks.push({ type: 'tool_use', id: toolCallId(answer, i, 'toolu_'), name: call.name, input: argumentsObject(call.arguments), caller: { type: 'direct' } }));
  return blocks;
}

function message(answer: LlmAnswer, request: LlmRequest, content: Block[], done: boolean) {
  return {
    id: nextId('msg_'),
    type: 'message',
    role: 'assistant',
    model: request.model,
    content,
    container: null,
    stop_reason: done ? STOP_REASON[answer.finish] : null,
    stop_sequence: null,
    stop_details: null,
    usage: {
      input_tokens: answer.inputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      // message_start carries a first count; message_delta the final one.
      output_tokens: done ? answer.outputTokens : 1,
      service_tier: 'standard',
    },
  };
}

/** A block's opening (empty) and the deltas that fill it. */
function blockStream(block: Block, answer: LlmAnswer): { start: Block; deltas: Record<string, unknown>[] } {
  if (block.type === 'thinking') {
    const deltas: Record<string, unknown>[] = splitText(answer.reasoning, answer.chunking).map((thinking) => ({ type: 'thinking_delta', thinking }));
    return { start: { type: 'thinking', thinking: '', signature: '' }, deltas: [...deltas, { type: 'signature_delta', signature: SIGNATURE }] };
  }
  if (block.type === 'text') return { start: { type: 'text', text: '', citations: null }, deltas: splitText(answer.text, answer.chunking).map((text) => ({ type: 'text_delta', text })) };
  const json = JSON.stringify(block['input']);
  const deltas = splitText(json, argumentChunking(answer)).map((partial_json) => ({ type: 'input_json_delta', partial_json }));
  return { start: { ...block, input: {} }, deltas };
}

/** The text a delta carries, for its token count. */
function deltaText(delta: Record<string, unknown>): string | undefined {
  const text = delta['text'] ?? delta['thinking'] ?? delta['partial_json'];
  return typeof text === 'string' ? text : undefined;
}

function events(answer: LlmAnswer, request: LlmRequest): LlmRendered {
  const out: string[] = [];
  const tokens: number[] = [];
  const emit = (type: string, data: Record<string, unknown>, piece?: string) => {
    out.push(sseEvent(type, { type, ...data }));
    tokens.push(piece === undefined ? 0 : tokensIn(piece));
  };
  emit('message_start', { message: message(answer, request, [], false) });
  emit('ping', {});
  blocksOf(answer).forEach((block, index) => {
    const { start, deltas } = blockStream(block, answer);
    emit('content_block_start', { index, content_block: start });
    for (const delta of deltas) emit('content_block_delta', { index, delta }, deltaText(delta));
    emit('content_block_stop', { index });
  });
  emit('message_delta', { delta: { stop_reason: STOP_REASON[answer.finish], stop_sequence: null, stop_details: null, container: null }, usage: { output_tokens: answer.outputTokens } });
  emit('message_stop', {});
  return { chunks: out, tokens, contentType: SSE_CONTENT_TYPE };
}

/**
 * An `error` event in the middle of the stream, which the Anthropic SDK throws as an `APIError`
 * of that type, as the API sends one when it is overloaded part way.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#error-events
 */
export const anthropicMessagesError: LlmErrorEvent = ({ message, type }) => sseEvent('error', { type: 'error', error: { type, message } });

export const renderAnthropicMessages: LlmRenderer = (answer, request) =>
  request.stream ? events(answer, request) : { json: message(answer, request, blocksOf(answer), true) };
