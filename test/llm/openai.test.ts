/**
 * `response.llm` with `api: 'openai.chat'` and `'openai.responses'`, read by the real `openai`
 * SDK inside an Express app: the same mock answers a streaming and a non-streaming request.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startLlmApp } from './llm-app.js';

const CHAT = 'https://api.openai.com/v1/chat/completions';
const RESPONSES = 'https://api.openai.com/v1/responses';
const WEATHER_TOOL = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

const scenarios = {
  default: { name: 'Default', mocks: [] },
  greeting: {
    name: 'A greeting',
    mocks: [
      { method: 'POST' as const, url: CHAT, response: { llm: { api: 'openai.chat' as const, text: 'Hello {{body.metadata.user}}, how can I help today?', usage: { inputTokens: 12, outputTokens: 9 } } } },
      { method: 'POST' as const, url: RESPONSES, response: { llm: { api: 'openai.responses' as const, text: 'Paris is the capital of France.', reasoning: 'The user asks about France.', usage: { inputTokens: 20, outputTokens: 7 }, chunking: 'token' as const } } },
    ],
  },
  weather: {
    name: 'A tool call',
    mocks: [
      {
        method: 'POST' as const,
        url: CHAT,
        response: { llm: { api: 'openai.chat' as const, text: 'Let me check.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } }, { id: 'call_second', name: 'get_time', arguments: '{"zone":"CET"}' }], usage: { inputTokens: 30, outputTokens: 18 } } },
      },
      { method: 'POST' as const, url: RESPONSES, response: { llm: { api: 'openai.responses' as const, toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }], usage: { inputTokens: 5, outputTokens: 6 } } } },
    ],
  },
  computed: {
    name: 'A response function',
    mocks: [
      {
        method: 'POST' as const,
        url: CHAT,
        response: async (request: Request) => {
          const { messages } = (await request.json()) as { messages: { content: string }[] };
          return { llm: { api: 'openai.chat' as const, text: `You said ${messages[0]!.content}` } };
        },
      },
    ],
  },
};

let app: Awaited<ReturnType<typeof startLlmApp>>;
beforeAll(async () => {
  app = await startLlmApp(scenarios, () => {
    // Its normal https base URL: the harness answers, nothing reaches the network.
    const openai = new OpenAI({ apiKey: 'sk-test-not-a-key', maxRetries: 0 });
    const messages = [{ role: 'user' as const, content: 'Hi' }];
    return {
      'chat-stream': async () => {
        const stream = openai.chat.completions.stream({ model: 'gpt-4o-mini', messages, metadata: { user: 'Ada' }, tools: [WEATHER_TOOL], stream_options: { include_usage: true } });
        const deltas: string[] = [];
        stream.on('content.delta', ({ delta }) => deltas.push(delta));
        const final = await stream.finalChatCompletion();
        return { deltas, final };
      },
      'chat-create-stream': async () => {
        const stream = await openai.chat.completions.create({ model: 'gpt-4o', messages, metadata: { user: 'Bo' }, stream: true });
        const chunks = [];
        for await (const chunk of stream) chunks.push(chunk);
        return chunks;
      },
      chat: async () => openai.chat.completions.create({ model: 'gpt-4o', messages, metadata: { user: 'Cy' }, tools: [WEATHER_TOOL] }),
      'responses-stream': async () => {
        const stream = openai.responses.stream({ model: 'gpt-5-mini', input: 'Capital of France?' });
        const events: { type: string; delta?: string }[] = [];
        for await (const event of stream) events.push({ type: event.type, ...('delta' in event && typeof event.delta === 'string' ? { delta: event.delta } : {}) });
        const final = await stream.finalResponse();
        return { events, outputText: final.output_text, final };
      },
      responses: async () => {
        const response = await openai.responses.create({ model: 'gpt-5-mini', input: 'Capital of France?' });
        return { outputText: response.output_text, response };
      },
    };
  });
});
afterAll(() => app?.stop());

test('a chat stream parses with finalChatCompletion(): text deltas by word, a template filled, usage when asked for', async () => {
  const { deltas, final } = await app.post<{ deltas: string[]; final: OpenAI.ChatCompletion }>('chat-stream', 'greeting');
  expect(deltas).toEqual(['Hello', ' Ada,', ' how', ' can', ' I', ' help', ' today?']);
  expect(final.model).toBe('gpt-4o-mini');
  expect(final.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'Hello Ada, how can I help today?' });
  expect(final.choices[0]!.finish_reason).toBe('stop');
  expect(final.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 });
});

test('a raw chat stream: a role chunk first, the finish reason last, no usage chunk unless include_usage', async () => {
  const chunks = await app.post<OpenAI.ChatCompletionChunk[]>('chat-create-stream', 'greeting');
  expect(chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '', refusal: null });
  expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hello Bo, how can I help today?');
  expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
  expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.usage === undefined)).toBe(true);
});

test('a chat stream with tool calls: names, IDs and arguments put together from fragments', async () => {
  const { final } = await app.post<{ final: OpenAI.ChatCompletion }>('chat-stream', 'weather');
  const message = final.choices[0]!.message;
  expect(final.choices[0]!.finish_reason).toBe('tool_calls');
  expect(message.content).toBe('Let me check.');
  expect(message.tool_calls).toEqual([
    { id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' } },
    { id: 'call_second', type: 'function', function: { name: 'get_time', arguments: '{"zone":"CET"}' } },
  ]);
  expect(final.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 18 });
});

test('the same mock answers a non-streaming chat request with a chat.completion', async () => {
  const completion = await app.post<OpenAI.ChatCompletion>('chat', 'weather');
  expect(completion.object).toBe('chat.completion');
  expect(completion.model).toBe('gpt-4o');
  expect(completion.choices[0]).toMatchObject({ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: 'Let me check.' } });
  expect(completion.choices[0]!.message.tool_calls![0]).toEqual({ id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' } });
  expect(completion.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 18, total_tokens: 48 });
});

test('a Responses stream: its event sequence, token deltas, and finalResponse() with output_text', async () => {
  const { events, outputText, final } = await app.post<{ events: { type: string; delta?: string }[]; outputText: string; final: OpenAI.Responses.Response }>('responses-stream', 'greeting');
  const types = [...new Set(events.map((e) => e.type))];
  expect(types).toEqual([
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.reasoning_summary_part.added',
    'response.reasoning_summary_text.delta',
    'response.reasoning_summary_text.done',
    'response.reasoning_summary_part.done',
    'response.output_item.done',
    'response.content_part.added',
    'response.output_text.delta',
    'response.output_text.done',
    'response.content_part.done',
    'response.completed',
  ]);
  const textDeltas = events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta);
  expect(textDeltas).toEqual(['Pari', 's', ' is', ' the', ' cap', 'ital', ' of', ' Fra', 'nce.']);
  expect(outputText).toBe('Paris is the capital of France.');
  expect(final.status).toBe('completed');
  expect(final.output[0]).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'The user asks about France.' }] });
  expect(final.usage).toMatchObject({ input_tokens: 20, output_tokens: 7, total_tokens: 27 });
});

test('a non-streaming Responses call: output_text, and a function call item', async () => {
  const { outputText } = await app.post<{ outputText: string }>('responses', 'greeting');
  expect(outputText).toBe('Paris is the capital of France.');
  const { response } = await app.post<{ response: OpenAI.Responses.Response }>('responses', 'weather');
  expect(response.output).toEqual([expect.objectContaining({ type: 'function_call', name: 'get_weather', arguments: '{"city":"Oslo"}', call_id: 'call_0', status: 'completed' })]);
  expect(response.usage).toMatchObject({ input_tokens: 5, output_tokens: 6 });
});

test('a response function may return an llm answer: streamed when the request streams, JSON when not', async () => {
  const { deltas, final } = await app.post<{ deltas: string[]; final: OpenAI.ChatCompletion }>('chat-stream', 'computed');
  expect(deltas).toEqual(['You', ' said', ' Hi']);
  expect(final.model).toBe('gpt-4o-mini');
  const completion = await app.post<OpenAI.ChatCompletion>('chat', 'computed');
  expect(completion.object).toBe('chat.completion');
  expect(completion.choices[0]!.message.content).toBe('You said Hi');
});
