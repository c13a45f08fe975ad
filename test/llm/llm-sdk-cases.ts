/**
 * What each LLM SDK parses from the harness's `response.llm` answers when an app on a server
 * calls it (issue 40, item 7): `openai` (chat streaming with finalChatCompletion(), the Responses
 * API's events), `@anthropic-ai/sdk` (messages.stream + finalMessage(), tool use),
 * `@google/genai` (generateContentStream) and the AI SDK's streamText/generateText over
 * `@ai-sdk/openai` and `@ai-sdk/anthropic`. The same cases run against a Next.js route handler
 * (test/adapters/next-llm.test.ts) and a Hono app on Bun and Deno (test/runtimes/llm-sdks-suite.ts).
 *
 * The app serves `POST <prefix>/openai`, `/anthropic`, `/gemini` and `/ai-sdk` with a JSON body
 * naming the call, and answers NDJSON: what the SDK handed the app as it came (deltas, events),
 * then `{ final }` with its parse, or `{ error }` when the SDK threw. Each test gives its own
 * mocks with `client.use` and sees only them.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { createHarnessClient, type HarnessClient } from 'scenario-harness/client';
import type { Mock } from 'scenario-harness';
import { describe, expect, test } from 'vitest';

const CHAT = 'https://api.openai.com/v1/chat/completions';
const RESPONSES = 'https://api.openai.com/v1/responses';
const MESSAGES = 'https://api.anthropic.com/v1/messages';
const GEMINI = 'https://generativelanguage.googleapis.com/*';

/** One line of a route's NDJSON answer. */
type Line = Record<string, unknown> & { final?: unknown; error?: string };

/** The app under test, once started: its origin and where its LLM routes live (`/app-router/llm`, `/llm`). */
export interface LlmSdkApp {
  origin: string;
  prefix: string;
}

/** The cases, against the app `app()` returns (called inside each test, after the suite's beforeAll started it). */
export function defineLlmSdkCases(app: () => LlmSdkApp): void {
  /** A fresh test with its own mocks. */
  async function testWith(...mocks: Mock[]): Promise<HarnessClient> {
    const client = createHarnessClient({ baseURL: app().origin, logger: { warn: () => {} } });
    await client.use(...mocks);
    return client;
  }

  const post = (client: HarnessClient, route: string, body: Record<string, unknown>) =>
    fetch(`${app().origin}${app().prefix}/${route}`, { method: 'POST', headers: { ...client.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  /** The route's lines as they came, and its `final` value; fails on an `error` line (the SDK threw). */
  async function call<T = Record<string, unknown>>(client: HarnessClient, route: string, body: Record<string, unknown>): Promise<{ lines: Line[]; final: T }> {
    const response = await post(client, route, body);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const lines = text.trim().split('\n').map((line) => JSON.parse(line) as Line);
    const error = lines.find((line) => line.error !== undefined);
    if (error !== undefined) throw new Error(`The route's SDK call failed: ${error.error}`);
    expect(lines.at(-1)).toHaveProperty('final');
    return { lines: lines.slice(0, -1), final: lines.at(-1)!.final as T };
  }

  describe('openai', () => {
    const weather = { method: 'POST' as const, url: CHAT, response: { llm: { api: 'openai.chat' as const, text: 'Let me check.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], usage: { inputTokens: 30, outputTokens: 18 } } } };

    test('chat.completions.stream(): the text deltas streamed through the route, finalChatCompletion() with usage', async () => {
      const client = await testWith({ method: 'POST', url: CHAT, response: { llm: { api: 'openai.chat', text: 'Hello from {{body.model}}, how can I help?', usage: { inputTokens: 12, outputTokens: 9 } } } });
      const { lines, final } = await call<OpenAI.ChatCompletion>(client, 'openai', { call: 'chat-stream' });
      expect(lines.map((line) => line.delta)).toEqual(['Hello', ' from', ' gpt-4o-mini,', ' how', ' can', ' I', ' help?']);
      expect(final.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'Hello from gpt-4o-mini, how can I help?' });
      expect(final.choices[0]!.finish_reason).toBe('stop');
      expect(final.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 });
    });

    test('a streamed tool call put together from its fragments, and the same mock answering a non-streaming create', async () => {
      const client = await testWith(weather);
      const { final } = await call<OpenAI.ChatCompletion>(client, 'openai', { call: 'chat-stream' });
      expect(final.choices[0]!.finish_reason).toBe('tool_calls');
      expect(final.choices[0]!.message.content).toBe('Let me check.');
      expect(final.choices[0]!.message.tool_calls).toEqual([{ id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]);
      const { final: completion } = await call<OpenAI.ChatCompletion>(client, 'openai', { call: 'chat' });
      expect(completion).toMatchObject({ object: 'chat.completion', model: 'gpt-4o', usage: { prompt_tokens: 30, completion_tokens: 18, total_tokens: 48 } });
      expect(completion.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { content: 'Let me check.', tool_calls: [{ id: 'call_0', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] } });
    });

    test("the Responses API: the stream's events in order, finalResponse() with output_text; a function call not streamed", async () => {
      const client = await testWith({ method: 'POST', url: RESPONSES, response: { llm: { api: 'openai.responses', text: 'Paris is the capital of France.', usage: { inputTokens: 20, outputTokens: 7 } } } });
      const { lines, final } = await call<{ outputText: string; response: OpenAI.Responses.Response }>(client, 'openai', { call: 'responses-stream' });
      expect([...new Set(lines.map((line) => line.type))]).toEqual([
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.content_part.added',
        'response.output_text.delta',
        'response.output_text.done',
        'response.content_part.done',
        'response.output_item.done',
        'response.completed',
      ]);
      expect(lines.filter((line) => line.type === 'response.output_text.delta').map((line) => line.delta)).toEqual(['Paris', ' is', ' the', ' capital', ' of', ' France.']);
      expect(final.outputText).toBe('Paris is the capital of France.');
      expect(final.response).toMatchObject({ status: 'completed', usage: { input_tokens: 20, output_tokens: 7, total_tokens: 27 } });

      const tool = await testWith({ method: 'POST', url: RESPONSES, response: { llm: { api: 'openai.responses', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] } } });
      const { final: created } = await call<{ response: OpenAI.Responses.Response }>(tool, 'openai', { call: 'responses' });
      expect(created.response.output).toEqual([expect.objectContaining({ type: 'function_call', name: 'get_weather', arguments: '{"city":"Oslo"}', call_id: 'call_0', status: 'completed' })]);
    });
  });

  describe('@anthropic-ai/sdk', () => {
    const toolUse = {
      method: 'POST' as const,
      url: MESSAGES,
      response: { llm: { api: 'anthropic.messages' as const, text: 'Checking the weather.', toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris', days: [1, 2] } }], usage: { inputTokens: 40, outputTokens: 25 } } },
    };

    test('messages.stream(): text and tool input streamed through the route, finalMessage() with the tool_use block', async () => {
      const client = await testWith(toolUse);
      const { lines, final } = await call<Anthropic.Message>(client, 'anthropic', { call: 'stream' });
      expect(lines.filter((line) => 'text' in line).map((line) => line.text)).toEqual(['Checking', ' the', ' weather.']);
      const inputJson = lines.filter((line) => 'inputJson' in line).map((line) => line.inputJson);
      expect(inputJson.join('')).toBe('{"city":"Paris","days":[1,2]}');
      expect(inputJson.length).toBeGreaterThan(1);
      expect(final.content).toEqual([
        expect.objectContaining({ type: 'text', text: 'Checking the weather.' }),
        expect.objectContaining({ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris', days: [1, 2] } }),
      ]);
      expect(final).toMatchObject({ model: 'claude-sonnet-5-5', stop_reason: 'tool_use', usage: { input_tokens: 40, output_tokens: 25 } });
    });

    test('the same mock answers messages.create', async () => {
      const { final } = await call<Anthropic.Message>(await testWith(toolUse), 'anthropic', { call: 'create' });
      expect(final).toMatchObject({ type: 'message', role: 'assistant', stop_reason: 'tool_use', usage: { input_tokens: 40, output_tokens: 25 } });
      expect(final.content[1]).toMatchObject({ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris', days: [1, 2] } });
    });
  });

  describe('@google/genai', () => {
    test('generateContentStream: each piece through the route, the finish reason and usage on the last; generateContent', async () => {
      const client = await testWith({ method: 'POST', url: GEMINI, response: { llm: { api: 'gemini', text: 'Two plus two is four.', usage: { inputTokens: 8, outputTokens: 6 } } } });
      const { lines } = await call(client, 'gemini', { call: 'stream' });
      expect(lines.map((line) => line.text)).toEqual(['Two', ' plus', ' two', ' is', ' four.']);
      expect(lines.slice(0, -1).every((line) => line.finishReason === undefined)).toBe(true);
      expect(lines.at(-1)).toMatchObject({ finishReason: 'STOP', usage: { promptTokenCount: 8, candidatesTokenCount: 6 } });
      const { final } = await call(client, 'gemini', { call: 'generate' });
      expect(final).toMatchObject({ text: 'Two plus two is four.', finishReason: 'STOP', modelVersion: 'gemini-2.5-flash' });
    });

    test('a function call, streamed and not', async () => {
      const client = await testWith({ method: 'POST', url: GEMINI, response: { llm: { api: 'gemini', toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] } } });
      const { lines } = await call(client, 'gemini', { call: 'stream' });
      expect(lines).toEqual([expect.objectContaining({ functionCalls: [{ name: 'get_weather', args: { city: 'Rome' } }], finishReason: 'STOP' })]);
      const { final } = await call(client, 'gemini', { call: 'generate' });
      expect(final).toMatchObject({ functionCalls: [{ name: 'get_weather', args: { city: 'Rome' } }], finishReason: 'STOP' });
    });
  });

  describe('the AI SDK', () => {
    const usage = { inputTokens: 14, outputTokens: 5 };
    const sunny = [
      { method: 'POST' as const, url: RESPONSES, response: { llm: { api: 'openai.responses' as const, text: 'Sunny in {{body.input.0.content.0.text}}.', usage } } },
      { method: 'POST' as const, url: CHAT, response: { llm: { api: 'openai.chat' as const, text: 'Sunny in {{body.messages.0.content}}.', usage } } },
      { method: 'POST' as const, url: MESSAGES, response: { llm: { api: 'anthropic.messages' as const, text: 'Sunny in {{body.messages.0.content.0.text}}.', usage } } },
    ];
    const toolAnswer = { toolCalls: [{ id: 'call_w', name: 'weather', arguments: { city: 'Nice' } }], usage: { inputTokens: 9, outputTokens: 4 } };
    const toolCalls = [
      { method: 'POST' as const, url: RESPONSES, response: { llm: { api: 'openai.responses' as const, ...toolAnswer } } },
      { method: 'POST' as const, url: CHAT, response: { llm: { api: 'openai.chat' as const, ...toolAnswer } } },
      { method: 'POST' as const, url: MESSAGES, response: { llm: { api: 'anthropic.messages' as const, ...toolAnswer } } },
    ];

    for (const [provider, label] of [['responses', '@ai-sdk/openai (Responses)'], ['chat', '@ai-sdk/openai (Chat Completions)'], ['anthropic', '@ai-sdk/anthropic']] as const) {
      test(`${label}: streamText through the route, toTextStreamResponse(), and generateText`, async () => {
        const client = await testWith(...sunny);
        const { lines, final } = await call(client, 'ai-sdk', { provider, call: 'stream' });
        expect(lines.map((line) => line.delta)).toEqual(['Sunny', ' in', ' Paris.']);
        expect(final).toMatchObject({ text: 'Sunny in Paris.', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 14, outputTokens: 5 } });
        const text = await post(client, 'ai-sdk', { provider, call: 'text-stream' });
        expect(await text.text()).toBe('Sunny in Paris.');
        expect((await call(client, 'ai-sdk', { provider, call: 'generate' })).final).toMatchObject({ text: 'Sunny in Paris.', finishReason: 'stop', usage: { inputTokens: 14, outputTokens: 5 } });
      });

      test(`${label}: a tool call with its parsed input, streamed and not`, async () => {
        const client = await testWith(...toolCalls);
        const expected = { toolCalls: [{ id: 'call_w', name: 'weather', input: { city: 'Nice' } }], finishReason: 'tool-calls' };
        expect((await call(client, 'ai-sdk', { provider, call: 'stream', tools: true })).final).toMatchObject(expected);
        expect((await call(client, 'ai-sdk', { provider, call: 'generate', tools: true })).final).toMatchObject(expected);
      });
    }
  });
}
