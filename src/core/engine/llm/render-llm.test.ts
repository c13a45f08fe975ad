import { expect, test } from 'vitest';
import type { LlmResponse } from '../../types.js';
import type { TemplateContext } from '../template.js';
import { compileLlm } from './compile-llm.js';
import { renderLlm } from './render-llm.js';

const decoder = new TextDecoder();

function render(llm: LlmResponse, url: string, body: unknown) {
  const context = { params: {}, url: new URL(url), headers: new Headers(), body, state: {}, variant: undefined } as TemplateContext;
  const rendered = renderLlm(compileLlm(llm, 'response.llm'), context);
  return { ...rendered, pieces: rendered.chunks?.map((chunk) => decoder.decode(chunk)) };
}

/** `event:` names and parsed `data:` of an SSE stream. */
function events(pieces: string[]) {
  return pieces.map((piece) => ({ event: /^event: (.*)$/m.exec(piece)?.[1], data: /^data: (.*)$/m.exec(piece)![1]! }));
}

test('openai.chat: one data-only event per chunk, ended by data: [DONE]', () => {
  const { contentType, pieces } = render({ api: 'openai.chat', text: 'Hi there' }, 'https://api.openai.com/v1/chat/completions', { model: 'm', stream: true });
  expect(contentType).toBe('text/event-stream; charset=utf-8');
  expect(pieces!.at(-1)).toBe('data: [DONE]\n\n');
  expect(pieces!.every((piece) => piece.startsWith('data: ') && piece.endsWith('\n\n'))).toBe(true);
  expect(events(pieces!).slice(0, -1).map((e) => JSON.parse(e.data).choices[0].delta)).toEqual([{ role: 'assistant', content: '', refusal: null }, { content: 'Hi' }, { content: ' there' }, {}]);
});

test('openai.responses: consecutive sequence numbers; finish length ends with response.incomplete', () => {
  const { pieces } = render({ api: 'openai.responses', text: 'Cut', finish: 'length' }, 'https://api.openai.com/v1/responses', { model: 'm', stream: true });
  const parsed = events(pieces!).map((e) => ({ event: e.event, data: JSON.parse(e.data) as { type: string; sequence_number: number; response?: { status: string; incomplete_details: unknown } } }));
  expect(parsed.every((e, i) => e.event === e.data.type && e.data.sequence_number === i)).toBe(true);
  expect(parsed.at(-1)!.data).toMatchObject({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } });
});

test('anthropic.messages: the event names in the API order', () => {
  const { pieces } = render({ api: 'anthropic.messages', text: 'Hi', toolCalls: [{ name: 'f', arguments: { a: 1 } }] }, 'https://api.anthropic.com/v1/messages', { model: 'm', stream: true });
  expect(events(pieces!).map((e) => e.event)).toEqual([
    'message_start',
    'ping',
    'content_block_start',
    'content_block_delta',
    'content_block_stop',
    'content_block_start',
    'content_block_delta',
    'content_block_delta',
    'content_block_stop',
    'message_delta',
    'message_stop',
  ]);
});

test('gemini: without alt=sse the stream is one JSON array; :generateContent is one JSON body', () => {
  const url = 'https://generativelanguage.googleapis.com/v1beta/models/gemini-x:streamGenerateContent';
  const { contentType, pieces } = render({ api: 'gemini', text: 'a b' }, url, {});
  expect(contentType).toBe('application/json; charset=utf-8');
  const array = JSON.parse(pieces!.join('')) as { candidates: { content: { parts: { text: string }[] }; finishReason?: string }[]; modelVersion: string }[];
  expect(array.map((r) => r.candidates[0]!.content.parts[0]!.text)).toEqual(['a', ' b']);
  expect(array.map((r) => r.candidates[0]!.finishReason)).toEqual([undefined, 'STOP']);
  expect(array[0]!.modelVersion).toBe('gemini-x');
  const sse = render({ api: 'gemini', text: 'a' }, `${url}?alt=sse`, {});
  expect(sse.pieces![0]).toMatch(/^data: \{.*\}\r\n\r\n$/);
  const whole = render({ api: 'gemini', text: 'a', finish: 'content_filter' }, url.replace('streamGenerateContent', 'generateContent'), {});
  expect(whole.chunks).toBeUndefined();
  expect(JSON.parse(whole.text!)).toMatchObject({ candidates: [{ content: { parts: [{ text: 'a' }], role: 'model' }, finishReason: 'SAFETY' }] });
});

test('gemini without alt=sse: errorAfter ends the JSON array with the error, even before any text', () => {
  const url = 'https://generativelanguage.googleapis.com/v1beta/models/gemini-x:streamGenerateContent';
  const after = (chunks: number) => JSON.parse(render({ api: 'gemini', text: 'a b c', errorAfter: { chunks, type: 'RESOURCE_EXHAUSTED', message: 'quota' } }, url, {}).pieces!.join('')) as unknown[];
  const one = after(1);
  expect(one).toHaveLength(2);
  expect(one[1]).toEqual({ error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } });
  expect(after(0)).toEqual([{ error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } }]);
});

test('every stream event carries its tokens: text pieces count, structural events count 0', () => {
  const chat = render({ api: 'openai.chat', text: 'one twothree', chunking: 'word', timing: { tokensPerSecond: 1000 } }, 'https://api.openai.com/v1/chat/completions', { stream: true });
  // role (0), 'one' (1), ' twothree' (3: nine characters), finish (0), [DONE] (0): 1 ms a token.
  expect(chat.stream!.schedule).toEqual([0, 1, 4, 4, 4]);
});

test('the answer as data, for the contract checks: text, tool calls as JSON text and the request body; none when errorAfter or failAfter cut the stream', () => {
  const url = 'https://api.openai.com/v1/chat/completions';
  const body = { model: 'm', response_format: { type: 'json_object' } };
  const llm: LlmResponse = { api: 'openai.chat', text: '{"a":1}', toolCalls: [{ name: 'f', arguments: { b: 2 } }] };
  expect(render(llm, url, body).answer).toEqual({ api: 'openai.chat', text: '{"a":1}', toolCalls: [{ id: undefined, name: 'f', arguments: '{"b":2}' }], requestBody: body });
  expect(render(llm, url, { ...body, stream: true }).answer).toMatchObject({ text: '{"a":1}' });
  expect(render({ ...llm, errorAfter: { chunks: 1 } }, url, { ...body, stream: true }).answer).toBeUndefined();
  expect(render({ ...llm, failAfter: 1 }, url, { ...body, stream: true }).answer).toBeUndefined();
  // Not streamed, errorAfter and failAfter do not apply: the app gets the whole answer.
  expect(render({ ...llm, errorAfter: { chunks: 1 } }, url, body).answer).toMatchObject({ text: '{"a":1}' });
});
