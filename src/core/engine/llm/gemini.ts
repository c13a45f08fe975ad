import type { LlmFinish } from '../../types.js';
import { argumentsObject, nextId, SSE_CONTENT_TYPE, sseEvent, tokensIn, type LlmAnswer, type LlmErrorEvent, type LlmRenderer, type LlmRequest } from './llm-answer.js';
import { splitText } from './split-text.js';

/**
 * Gemini (`POST /v1beta/models/<model>:generateContent`): one `GenerateContentResponse`, or for
 * `:streamGenerateContent` a series of them, each with the next parts, the last one with the
 * finish reason and usage. With `alt=sse` (what @google/genai asks for) they are Server-Sent
 * Events ending in CRLFs as Google's servers send them, otherwise one JSON array.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 * Function calls arrive whole (Gemini does not stream arguments); reasoning is a part with `thought: true`.
 */

const FINISH_REASON: Record<LlmFinish, string> = { stop: 'STOP', length: 'MAX_TOKENS', tool_calls: 'STOP', content_filter: 'SAFETY' };

type Part = Record<string, unknown>;

function usageOf(answer: LlmAnswer) {
  const thoughts = answer.reasoning === '' ? undefined : Math.ceil(answer.reasoning.length / 4);
  return {
    promptTokenCount: answer.inputTokens,
    candidatesTokenCount: answer.outputTokens,
    totalTokenCount: answer.inputTokens + answer.outputTokens + (thoughts ?? 0),
    ...(thoughts === undefined ? {} : { thoughtsTokenCount: thoughts }),
  };
}

function functionCallParts(answer: LlmAnswer): Part[] {
  return answer.toolCalls.map((call) => ({ functionCall: { name: call.name, args: argumentsObject(call.arguments) } }));
}

/** One `GenerateContentResponse` carrying `parts`; `last` adds the finish reason and usage. */
function responseWith(parts: Part[], answer: LlmAnswer, request: LlmRequest, responseId: string, last: boolean) {
  return {
    candidates: [{ content: { parts, role: 'model' }, ...(last ? { finishReason: FINISH_REASON[answer.finish] } : {}), index: 0 }],
    ...(last ? { usageMetadata: usageOf(answer) } : {}),
    modelVersion: request.model,
    responseId,
  };
}

function wholeParts(answer: LlmAnswer): Part[] {
  const parts: Part[] = [];
  if (answer.reasoning !== '') parts.push({ text: answer.reasoning, thought: true });
  if (answer.text !== '' || answer.toolCalls.length === 0) parts.push({ text: answer.text });
  return [...parts, ...functionCallParts(answer)];
}

/** The streamed responses: thought pieces, text pieces, the function calls, then an empty closing one; and the tokens of text each carries. */
function streamed(answer: LlmAnswer, request: LlmRequest): { responses: unknown[]; tokens: number[] } {
  const responseId = nextId('');
  const pieces: Part[][] = [
    ...splitText(answer.reasoning, answer.chunking).map((text) => [{ text, thought: true }]),
    ...splitText(answer.text, answer.chunking).map((text) => [{ text }]),
  ];
  const tokens = pieces.map((parts) => tokensIn(parts[0]!.text as string));
  if (answer.toolCalls.length > 0) {
    pieces.push(functionCallParts(answer));
    tokens.push(tokensIn(answer.toolCalls.map((call) => call.arguments).join('')));
  }
  // The finish reason rides on the last piece; with nothing to say, one empty text part carries it.
  if (pieces.length === 0) {
    pieces.push([{ text: '' }]);
    tokens.push(0);
  }
  return { responses: pieces.map((parts, i) => responseWith(parts, answer, request, responseId, i === pieces.length - 1)), tokens };
}

/** Gemini's status names with their HTTP codes, for `errorAfter.type`. */
const STATUS_CODES: Record<string, number> = { INVALID_ARGUMENT: 400, PERMISSION_DENIED: 403, NOT_FOUND: 404, RESOURCE_EXHAUSTED: 429, CANCELLED: 499, INTERNAL: 500, UNAVAILABLE: 503, DEADLINE_EXCEEDED: 504 };

/**
 * An error in the middle of the stream: `{ error: { code, message, status } }`, which
 * @google/genai throws as an `ApiError` with that `status` code (its message names the status).
 * Without alt=sse it ends the JSON array.
 */
export const geminiError: LlmErrorEvent = ({ message, type }, request, index) => {
  const error = { error: { code: STATUS_CODES[type] ?? 500, message, status: type } };
  return request.url.searchParams.get('alt') === 'sse' ? sseEvent(undefined, error, '\r\n') : `${index === 0 ? '[' : ',\r\n'}${JSON.stringify(error)}]`;
};

export const renderGemini: LlmRenderer = (answer, request) => {
  if (!request.stream) return { json: responseWith(wholeParts(answer), answer, request, nextId(''), true) };
  const { responses, tokens } = streamed(answer, request);
  if (request.url.searchParams.get('alt') === 'sse') return { chunks: responses.map((response) => sseEvent(undefined, response, '\r\n')), tokens, contentType: SSE_CONTENT_TYPE };
  // Without alt=sse the stream is one JSON array, sent an element at a time.
  return { chunks: responses.map((response, i) => `${i === 0 ? '[' : ',\r\n'}${JSON.stringify(response)}${i === responses.length - 1 ? ']' : ''}`), tokens, contentType: 'application/json; charset=utf-8' };
};
