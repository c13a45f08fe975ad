import { argumentChunking, nextId, nowSeconds, SSE_CONTENT_TYPE, sseEvent, tokensIn, toolCallId, type LlmAnswer, type LlmErrorEvent, type LlmRendered, type LlmRenderer, type LlmRequest } from './llm-answer.js';
import { splitText } from './split-text.js';

/**
 * OpenAI Responses (`POST /v1/responses`): a `response` object, or with `"stream": true` its
 * typed events, each `event: <type>` with a `sequence_number`: `response.created`,
 * `response.in_progress`, then each output item (added, its parts and deltas, done), then
 * `response.completed` (or `response.incomplete` when the answer was cut short).
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 * Output items come in the API's order: reasoning (a summary), the message, the function calls.
 */

type Item = Record<string, unknown> & { id: string; type: string };

/** `length` and `content_filter` end a response as `incomplete`, with the reason. */
function endOf(answer: LlmAnswer): { status: string; incomplete_details: { reason: string } | null } {
  if (answer.finish === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (answer.finish === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

function usageOf(answer: LlmAnswer) {
  return {
    input_tokens: answer.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: answer.outputTokens,
    output_tokens_details: { reasoning_tokens: answer.reasoning === '' ? 0 : Math.ceil(answer.reasoning.length / 4) },
    total_tokens: answer.inputTokens + answer.outputTokens,
  };
}

/** The response object: `in_progress` with no output while streaming starts, whole at the end. */
function responseObject(id: string, createdAt: number, answer: LlmAnswer, request: LlmRequest, output: Item[] | undefined) {
  const end = output === undefined ? { status: 'in_progress', incomplete_details: null } : endOf(answer);
  const body = request.body ?? {};
  return {
    id,
    object: 'response',
    created_at: createdAt,
    ...end,
    completed_at: end.status === 'completed' ? nowSeconds() : null,
    background: false,
    error: null,
    instructions: body['instructions'] ?? null,
    max_output_tokens: body['max_output_tokens'] ?? null,
    model: request.model,
    output: output ?? [],
    parallel_tool_calls: true,
    previous_response_id: body['previous_response_id'] ?? null,
    reasoning: { effort: null, summary: null },
    store: true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: Array.isArray(body['tools']) ? body['tools'] : [],
    top_p: 1,
    truncation: 'disabled',
    usage: output === undefined ? null : usageOf(answer),
    user: null,
    metadata: {},
  };
}

/** The finished output items. */
function outputItems(answer: LlmAnswer): Item[] {
  const items: Item[] = [];
  if (answer.reasoning !== '') items.push({ id: nextId('rs_'), type: 'reasoning', summary: [{ type: 'summary_text', text: answer.reasoning }] });
  if (answer.text !== '' || answer.toolCalls.length === 0) {
    items.push({ id: nextId('msg_'), type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text: answer.text }] });
  }
  answer.toolCalls.forEach((call, i) => {
    items.push({ id: nextId('fc_'), type: 'function_call', status: 'completed', arguments: call.arguments, call_id: toolCallId(answer, i, 'call_'), name: call.name });
  });
  return items;
}

/** The events that stream one finished item: added, its content in deltas, done. */
function itemEvents(item: Item, output_index: number, answer: LlmAnswer, emit: (type: string, data: Record<string, unknown>, piece?: string) => void): void {
  const item_id = item.id;
  if (item.type === 'reasoning') {
    const text = answer.reasoning;
    const part = { type: 'summary_text', text };
    emit('response.output_item.added', { output_index, item: { ...item, summary: [] } });
    emit('response.reasoning_summary_part.added', { item_id, output_index, summary_index: 0, part: { ...part, text: '' } });
    for (const delta of splitText(text, answer.chunking)) emit('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta }, delta);
    emit('response.reasoning_summary_text.done', { item_id, output_index, summary_index: 0, text });
    emit('response.reasoning_summary_part.done', { item_id, output_index, summary_index: 0, part });
  } else if (item.type === 'message') {
    const text = answer.text;
    const part = { type: 'output_text', annotations: [], logprobs: [], text };
    emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
    emit('response.content_part.added', { item_id, output_index, content_index: 0, part: { ...part, text: '' } });
    for (const delta of splitText(text, answer.chunking)) emit('response.output_text.delta', { item_id, output_index, content_index: 0, delta, logprobs: [] }, delta);
    emit('response.output_text.done', { item_id, output_index, content_index: 0, text, logprobs: [] });
    emit('response.content_part.done', { item_id, output_index, content_index: 0, part });
  } else {
    const args = item['arguments'] as string;
    emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
    for (const delta of splitText(args, argumentChunking(answer))) emit('response.function_call_arguments.delta', { item_id, output_index, delta }, delta);
    emit('response.function_call_arguments.done', { item_id, output_index, name: item['name'], arguments: args });
  }
  emit('response.output_item.done', { output_index, item });
}

function events(answer: LlmAnswer, request: LlmRequest): LlmRendered {
  const id = nextId('resp_');
  const createdAt = nowSeconds();
  const out: string[] = [];
  const tokens: number[] = [];
  const emit = (type: string, data: Record<string, unknown>, piece?: string) => {
    out.push(sseEvent(type, { type, sequence_number: out.length, ...data }));
    tokens.push(piece === undefined ? 0 : tokensIn(piece));
  };
  const started = responseObject(id, createdAt, answer, request, undefined);
  emit('response.created', { response: started });
  emit('response.in_progress', { response: started });
  const items = outputItems(answer);
  items.forEach((item, index) => itemEvents(item, index, answer, emit));
  const done = responseObject(id, createdAt, answer, request, items);
  emit(done.status === 'completed' ? 'response.completed' : 'response.incomplete', { response: done });
  return { chunks: out, tokens, contentType: SSE_CONTENT_TYPE };
}

/**
 * An `error` event in the middle of the stream (`ResponseErrorEvent`: `code`, `message`,
 * `param`), with the same error under `error` too, which is what the openai SDK throws as an
 * `APIError` (it reads `data.error` of any event).
 */
export const openaiResponsesError: LlmErrorEvent = ({ message, type }, _request, sequence_number) =>
  sseEvent('error', { type: 'error', code: type, message, param: null, sequence_number, error: { type, code: type, message, param: null } });

export const renderOpenaiResponses: LlmRenderer = (answer, request) =>
  request.stream
    ? events(answer, request)
    : { json: responseObject(nextId('resp_'), nowSeconds(), answer, request, outputItems(answer)) };
