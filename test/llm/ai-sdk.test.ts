/**
 * The AI SDK's `streamText` and `generateText` over `@ai-sdk/openai` (Responses and Chat
 * Completions) and `@ai-sdk/anthropic`, reading `response.llm` answers inside an Express app.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText, tool, type LanguageModel } from 'ai';
import { z } from 'zod';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startLlmApp } from './llm-app.js';

// Each API carries the prompt its own way; the template reads it from there.
const usage = { inputTokens: 14, outputTokens: 5 };
const toolAnswer = { toolCalls: [{ id: 'call_w', name: 'weather', arguments: { city: 'Nice' } }], usage: { inputTokens: 9, outputTokens: 4 } };

const scenarios = {
  default: { name: 'Default', mocks: [] },
  sunny: {
    name: 'Text',
    mocks: [
      { method: 'POST' as const, url: 'https://api.openai.com/v1/responses', response: { llm: { api: 'openai.responses' as const, text: 'Sunny in {{body.input.0.content.0.text}}.', usage } } },
      { method: 'POST' as const, url: 'https://api.openai.com/v1/chat/completions', response: { llm: { api: 'openai.chat' as const, text: 'Sunny in {{body.messages.0.content}}.', usage } } },
      { method: 'POST' as const, url: 'https://api.anthropic.com/v1/messages', response: { llm: { api: 'anthropic.messages' as const, text: 'Sunny in {{body.messages.0.content.0.text}}.', usage } } },
    ],
  },
  tool: {
    name: 'A tool call',
    mocks: [
      { method: 'POST' as const, url: 'https://api.openai.com/v1/responses', response: { llm: { api: 'openai.responses' as const, ...toolAnswer } } },
      { method: 'POST' as const, url: 'https://api.openai.com/v1/chat/completions', response: { llm: { api: 'openai.chat' as const, ...toolAnswer } } },
      { method: 'POST' as const, url: 'https://api.anthropic.com/v1/messages', response: { llm: { api: 'anthropic.messages' as const, ...toolAnswer } } },
    ],
  },
};

const tools = { weather: tool({ description: 'The weather in a city', inputSchema: z.object({ city: z.string() }) }) };

let app: Awaited<ReturnType<typeof startLlmApp>>;
beforeAll(async () => {
  app = await startLlmApp(scenarios, () => {
    const openai = createOpenAI({ apiKey: 'sk-test-not-a-key' });
    const anthropic = createAnthropic({ apiKey: 'sk-ant-test-not-a-key' });
    const models: Record<string, LanguageModel> = { responses: openai('gpt-5-mini'), chat: openai.chat('gpt-4o-mini'), anthropic: anthropic('claude-sonnet-5-5') };
    const modelOf = (body: Record<string, unknown>) => models[body['provider'] as string]!;
    return {
      stream: async (body) => {
        const result = streamText({ model: modelOf(body), prompt: 'Paris', maxRetries: 0, onError: () => {} });
        const deltas: string[] = [];
        for await (const delta of result.textStream) deltas.push(delta);
        return { deltas, text: await result.text, finishReason: await result.finishReason, usage: await result.usage };
      },
      generate: async (body) => {
        const result = await generateText({ model: modelOf(body), prompt: 'Paris', maxRetries: 0 });
        return { text: result.text, finishReason: result.finishReason, usage: result.usage };
      },
      'stream-tool': async (body) => {
        const result = streamText({ model: modelOf(body), prompt: 'Weather in Nice?', tools, maxRetries: 0, onError: () => {} });
        await result.consumeStream();
        return { toolCalls: (await result.toolCalls).map((call) => ({ id: call.toolCallId, name: call.toolName, input: call.input })), finishReason: await result.finishReason };
      },
      'generate-tool': async (body) => {
        const result = await generateText({ model: modelOf(body), prompt: 'Weather in Nice?', tools, maxRetries: 0 });
        return { toolCalls: result.toolCalls.map((call) => ({ id: call.toolCallId, name: call.toolName, input: call.input })), finishReason: result.finishReason };
      },
    };
  });
});
afterAll(() => app?.stop());

for (const provider of ['responses', 'chat', 'anthropic']) {
  test(`${provider}: streamText streams the words and ends with finish reason and usage`, async () => {
    const result = await app.post<{ deltas: string[]; text: string; finishReason: string; usage: Record<string, unknown> }>('stream', 'sunny', { provider });
    expect(result.deltas).toEqual(['Sunny', ' in', ' Paris.']);
    expect(result.text).toBe('Sunny in Paris.');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ inputTokens: 14, outputTokens: 5 });
  });

  test(`${provider}: generateText gets the whole text`, async () => {
    const result = await app.post<{ text: string; finishReason: string; usage: Record<string, unknown> }>('generate', 'sunny', { provider });
    expect(result).toMatchObject({ text: 'Sunny in Paris.', finishReason: 'stop', usage: { inputTokens: 14, outputTokens: 5 } });
  });

  test(`${provider}: a tool call, streamed and not`, async () => {
    const expected = { toolCalls: [{ id: 'call_w', name: 'weather', input: { city: 'Nice' } }], finishReason: 'tool-calls' };
    expect(await app.post('stream-tool', 'tool', { provider })).toEqual(expected);
    expect(await app.post('generate-tool', 'tool', { provider })).toEqual(expected);
  });
}
