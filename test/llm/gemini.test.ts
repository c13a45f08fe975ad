/**
 * `response.llm` with `api: 'gemini'`, read by the real `@google/genai` inside an Express app:
 * `generateContentStream` (`:streamGenerateContent?alt=sse`) and `generateContent`, from one mock.
 */
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startLlmApp } from './llm-app.js';

const GEMINI = 'https://generativelanguage.googleapis.com/*';

const scenarios = {
  default: { name: 'Default', mocks: [] },
  answer: {
    name: 'Text with a thought',
    mocks: [{ method: 'POST' as const, url: GEMINI, response: { llm: { api: 'gemini' as const, reasoning: 'Simple sum.', text: 'Two plus two is four.', usage: { inputTokens: 8, outputTokens: 6 } } } }],
  },
  tool: {
    name: 'A function call',
    mocks: [{ method: 'POST' as const, url: GEMINI, response: { llm: { api: 'gemini' as const, toolCalls: [{ name: 'get_weather', arguments: '{"city":"Rome"}' }], usage: { inputTokens: 3, outputTokens: 4 } } } }],
  },
};

let app: Awaited<ReturnType<typeof startLlmApp>>;
beforeAll(async () => {
  app = await startLlmApp(scenarios, () => {
    const ai = new GoogleGenAI({ apiKey: 'gemini-test-not-a-key' });
    const request = { model: 'gemini-2.5-flash', contents: 'What is 2 + 2?' };
    return {
      stream: async () => {
        const pieces: { text: string | undefined; thought: boolean; finishReason?: string; usage?: unknown }[] = [];
        for await (const chunk of await ai.models.generateContentStream(request)) {
          const parts = chunk.candidates?.[0]?.content?.parts ?? [];
          pieces.push({ text: parts.map((p) => p.text ?? '').join(''), thought: parts.some((p) => p.thought === true), finishReason: chunk.candidates?.[0]?.finishReason, usage: chunk.usageMetadata });
        }
        return pieces;
      },
      generate: async () => {
        const response = await ai.models.generateContent(request);
        return { text: response.functionCalls === undefined ? response.text : undefined, functionCalls: response.functionCalls, finishReason: response.candidates?.[0]?.finishReason, usage: response.usageMetadata, modelVersion: response.modelVersion };
      },
    };
  });
});
afterAll(() => app?.stop());

test('generateContentStream: thought pieces, then text pieces, the finish reason and usage on the last', async () => {
  const pieces = await app.post<{ text: string; thought: boolean; finishReason?: string; usage?: Record<string, number> }[]>('stream', 'answer');
  expect(pieces.map((p) => [p.text, p.thought])).toEqual([
    ['Simple', true],
    [' sum.', true],
    ['Two', false],
    [' plus', false],
    [' two', false],
    [' is', false],
    [' four.', false],
  ]);
  expect(pieces.slice(0, -1).every((p) => p.finishReason === undefined)).toBe(true);
  expect(pieces.at(-1)).toMatchObject({ finishReason: 'STOP', usage: { promptTokenCount: 8, candidatesTokenCount: 6 } });
});

test('generateContent: the whole text (thoughts left out of .text), the model echoed from the path', async () => {
  const answer = await app.post<{ text: string; finishReason: string; usage: Record<string, number>; modelVersion: string }>('generate', 'answer');
  expect(answer).toMatchObject({ text: 'Two plus two is four.', finishReason: 'STOP', modelVersion: 'gemini-2.5-flash', usage: { promptTokenCount: 8, candidatesTokenCount: 6 } });
});

test('a function call arrives whole, streamed or not', async () => {
  const answer = await app.post<{ functionCalls: unknown }>('generate', 'tool');
  expect(answer.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'Rome' } }]);
  const pieces = await app.post<{ finishReason?: string }[]>('stream', 'tool');
  expect(pieces).toHaveLength(1);
  expect(pieces[0]!.finishReason).toBe('STOP');
});
