/**
 * `llm.errorAfter`, `llm.failAfter` and `llm.timing`, read by the real SDKs inside an Express
 * app: each SDK throws its provider's error after exactly n chunks of text; a dropped connection
 * fails the stream after n; a paced answer's text deltas come no earlier than their schedule.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startLlmApp } from './llm-app.js';

const TEXT = 'one two three four five six';
const CHAT = 'https://api.openai.com/v1/chat/completions';
const RESPONSES = 'https://api.openai.com/v1/responses';
const MESSAGES = 'https://api.anthropic.com/v1/messages';
const GEMINI = 'https://generativelanguage.googleapis.com/*';

const answer = (api: 'openai.chat' | 'openai.responses' | 'anthropic.messages' | 'gemini', extra: object) => ({ api, text: TEXT, ...extra });
const mocksWith = (extra: object) => [
  { method: 'POST' as const, url: CHAT, response: { llm: answer('openai.chat', extra) } },
  { method: 'POST' as const, url: RESPONSES, response: { llm: answer('openai.responses', extra) } },
  { method: 'POST' as const, url: MESSAGES, response: { llm: answer('anthropic.messages', extra) } },
  { method: 'POST' as const, url: GEMINI, response: { llm: answer('gemini', extra) } },
];

const scenarios = {
  default: { name: 'Default', mocks: [] },
  overloaded: { name: 'Error event after 3 chunks', mocks: mocksWith({ errorAfter: { chunks: 3 } }) },
  custom: { name: 'Error event with its own words', mocks: mocksWith({ errorAfter: { chunks: 2, message: 'Rate limited mid-stream', type: 'rate_limit_error' } }) },
  dropped: { name: 'Connection drops after 2 chunks', mocks: mocksWith({ failAfter: 2 }) },
  paced: { name: 'Paced at 20 tokens a second after 100 ms', mocks: mocksWith({ chunking: 'token', timing: { firstMs: 100, tokensPerSecond: 20 } }) },
};

/** What the app saw: each text delta with when it came (ms after the call), and the error the SDK threw. */
interface Seen {
  texts: string[];
  at: number[];
  error?: { name: string; message: string; status?: number; type?: string };
}

async function collect(run: (text: (delta: string) => void) => Promise<void>): Promise<Seen> {
  const started = performance.now();
  const seen: Seen = { texts: [], at: [] };
  try {
    await run((delta) => {
      seen.texts.push(delta);
      seen.at.push(performance.now() - started);
    });
  } catch (error) {
    const e = error as { name: string; message: string; status?: number; type?: string; error?: { type?: string } };
    seen.error = { name: e.constructor.name, message: e.message, status: e.status, type: e.type ?? e.error?.type };
  }
  return seen;
}

let app: Awaited<ReturnType<typeof startLlmApp>>;
beforeAll(async () => {
  app = await startLlmApp(scenarios, () => {
    const openai = new OpenAI({ apiKey: 'sk-test-not-a-key', maxRetries: 0 });
    const anthropic = new Anthropic({ apiKey: 'sk-ant-test-not-a-key', maxRetries: 0 });
    const gemini = new GoogleGenAI({ apiKey: 'gemini-test-not-a-key' });
    const messages = [{ role: 'user' as const, content: 'Count' }];
    return {
      chat: () =>
        collect(async (text) => {
          for await (const chunk of await openai.chat.completions.create({ model: 'gpt-5.5', messages, stream: true })) {
            const delta = chunk.choices[0]?.delta.content;
            if (delta) text(delta);
          }
        }),
      responses: () =>
        collect(async (text) => {
          for await (const event of await openai.responses.create({ model: 'gpt-5.5', input: 'Count', stream: true })) {
            if (event.type === 'response.output_text.delta') text(event.delta);
          }
        }),
      anthropic: () =>
        collect(async (text) => {
          for await (const event of anthropic.messages.stream({ model: 'claude-sonnet-5-5', max_tokens: 100, messages })) {
            if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text(event.delta.text);
          }
        }),
      gemini: () =>
        collect(async (text) => {
          for await (const chunk of await gemini.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Count' })) {
            if (chunk.text) text(chunk.text);
          }
        }),
    };
  });
});
afterAll(() => app?.stop());

const WORDS = TEXT.split(' ').map((word, i) => (i === 0 ? word : ` ${word}`));

test('openai chat.completions: an APIError of type server_error after exactly 3 chunks of text', async () => {
  const seen = await app.post<Seen>('chat', 'overloaded');
  expect(seen.texts).toEqual(WORDS.slice(0, 3));
  expect(seen.error).toMatchObject({ name: 'APIError', type: 'server_error' });
  expect(seen.error!.message).toContain('The server had an error while processing your request');
});

test('openai responses: an APIError after exactly 3 text deltas', async () => {
  const seen = await app.post<Seen>('responses', 'overloaded');
  expect(seen.texts).toEqual(WORDS.slice(0, 3));
  expect(seen.error).toMatchObject({ name: 'APIError', type: 'server_error' });
  expect(seen.error!.message).toContain('The server had an error while processing your request');
});

test('anthropic messages.stream: an APIError of type overloaded_error after exactly 3 text deltas', async () => {
  const seen = await app.post<Seen>('anthropic', 'overloaded');
  expect(seen.texts).toEqual(WORDS.slice(0, 3));
  expect(seen.error).toMatchObject({ name: 'APIError', type: 'overloaded_error' });
  expect(seen.error!.message).toContain('Overloaded');
});

test('gemini generateContentStream: an ApiError with status 503 (UNAVAILABLE) after exactly 3 pieces of text', async () => {
  const seen = await app.post<Seen>('gemini', 'overloaded');
  expect(seen.texts).toEqual(WORDS.slice(0, 3));
  expect(seen.error).toMatchObject({ name: 'ApiError', status: 503 });
  expect(seen.error!.message).toContain('UNAVAILABLE');
});

test("errorAfter's message and type reach every SDK's error", async () => {
  for (const route of ['chat', 'responses', 'anthropic', 'gemini']) {
    const seen = await app.post<Seen>(route, 'custom');
    expect(seen.texts, route).toEqual(WORDS.slice(0, 2));
    expect(seen.error!.message, route).toContain('Rate limited mid-stream');
    if (route !== 'gemini') expect(seen.error!.type, route).toBe('rate_limit_error');
  }
});

test('failAfter: the connection drops after exactly 2 chunks of text, and each SDK fails the stream', async () => {
  for (const route of ['chat', 'responses', 'anthropic', 'gemini']) {
    const seen = await app.post<Seen>(route, 'dropped');
    expect(seen.texts, route).toEqual(WORDS.slice(0, 2));
    expect(seen.error, route).toBeDefined();
  }
});

test("timing: each SDK gets the text deltas no earlier than their schedule ('token' pieces at 20 a second after 100 ms)", async () => {
  for (const route of ['chat', 'responses', 'anthropic', 'gemini']) {
    const seen = await app.post<Seen>(route, 'paced');
    expect(seen.error, route).toBeUndefined();
    expect(seen.texts.join(''), route).toBe(TEXT);
    // Pieces of at most 4 characters, one token each: the n-th comes at 100 + 50 n ms at the earliest.
    seen.at.forEach((ms, n) => expect(ms, `${route} piece ${n}`).toBeGreaterThanOrEqual(100 + 50 * n - 1));
  }
});
