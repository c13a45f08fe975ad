/**
 * `response.llm` with `api: 'anthropic.messages'`, read by the real `@anthropic-ai/sdk` inside
 * an Express app: `messages.stream(...).finalMessage()` and `messages.create`, from one mock.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startLlmApp } from './llm-app.js';

const MESSAGES = 'https://api.anthropic.com/v1/messages';

const scenarios = {
  default: { name: 'Default', mocks: [] },
  weather: {
    name: 'Text, thinking and a tool call',
    mocks: [
      {
        method: 'POST' as const,
        url: MESSAGES,
        response: {
          llm: {
            api: 'anthropic.messages' as const,
            reasoning: 'Weather needs a tool.',
            text: 'Checking the weather in {{body.metadata.user_id}}.',
            toolCalls: [{ id: 'toolu_weather', name: 'get_weather', arguments: { city: 'Paris', days: [1, 2] } }],
            usage: { inputTokens: 40, outputTokens: 25 },
          },
        },
      },
    ],
  },
  cut: {
    name: 'Cut short',
    mocks: [{ method: 'POST' as const, url: MESSAGES, response: { llm: { api: 'anthropic.messages' as const, text: 'A long story that', finish: 'length' as const, chunking: { chars: 5 } } } }],
  },
};

let app: Awaited<ReturnType<typeof startLlmApp>>;
beforeAll(async () => {
  app = await startLlmApp(scenarios, () => {
    const anthropic = new Anthropic({ apiKey: 'sk-ant-test-not-a-key', maxRetries: 0 });
    const params = { model: 'claude-sonnet-5-5', max_tokens: 1024, metadata: { user_id: 'Lyon' }, messages: [{ role: 'user' as const, content: 'Weather?' }] };
    return {
      stream: async () => {
        const stream = anthropic.messages.stream(params);
        const texts: string[] = [];
        const inputJson: string[] = [];
        stream.on('text', (text) => texts.push(text));
        stream.on('inputJson', (partial) => inputJson.push(partial));
        const final = await stream.finalMessage();
        return { texts, inputJson, final };
      },
      create: async () => anthropic.messages.create(params),
    };
  });
});
afterAll(() => app?.stop());

test('messages.stream().finalMessage(): thinking, text and a tool_use block, with stop reason and usage', async () => {
  const { texts, inputJson, final } = await app.post<{ texts: string[]; inputJson: string[]; final: Anthropic.Message }>('stream', 'weather');
  expect(texts).toEqual(['Checking', ' the', ' weather', ' in', ' Lyon.']);
  expect(inputJson.join('')).toBe('{"city":"Paris","days":[1,2]}');
  expect(inputJson.length).toBeGreaterThan(1);
  expect(final.model).toBe('claude-sonnet-5-5');
  expect(final.content).toEqual([
    expect.objectContaining({ type: 'thinking', thinking: 'Weather needs a tool.' }),
    expect.objectContaining({ type: 'text', text: 'Checking the weather in Lyon.' }),
    expect.objectContaining({ type: 'tool_use', id: 'toolu_weather', name: 'get_weather', input: { city: 'Paris', days: [1, 2] } }),
  ]);
  expect(final.stop_reason).toBe('tool_use');
  expect(final.usage).toMatchObject({ input_tokens: 40, output_tokens: 25 });
});

test('the same mock answers messages.create with a message', async () => {
  const message = await app.post<Anthropic.Message>('create', 'weather');
  expect(message).toMatchObject({ type: 'message', role: 'assistant', model: 'claude-sonnet-5-5', stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 40, output_tokens: 25 } });
  expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use']);
  expect(message.content[2]).toEqual({ type: 'tool_use', id: 'toolu_weather', name: 'get_weather', input: { city: 'Paris', days: [1, 2] }, caller: { type: 'direct' } });
});

test('finish: length is max_tokens; { chars } cuts the text deltas; usage is estimated when not given', async () => {
  const { texts, final } = await app.post<{ texts: string[]; final: Anthropic.Message }>('stream', 'cut');
  expect(texts).toEqual(['A lon', 'g sto', 'ry th', 'at']);
  expect(final.stop_reason).toBe('max_tokens');
  expect(final.content).toEqual([{ type: 'text', text: 'A long story that', citations: null }]);
  expect(final.usage.output_tokens).toBe(Math.ceil('A long story that'.length / 4));
  expect(final.usage.input_tokens).toBeGreaterThan(0);
});
