/**
 * `response.llm` through the standalone server (`scenario-harness serve`): a service points its
 * SDK at the server's `/https/<host>` path, and gets the provider's stream or JSON from a file.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServe, type ServeProcess } from '../standalone/serve-process.js';

const scenarios = {
  default: { name: 'Default', mocks: [] },
  llm: {
    name: 'LLM answers',
    mocks: [
      { method: 'POST', url: 'https://api.openai.com/v1/chat/completions', response: { llm: { api: 'openai.chat', text: 'From the server.', toolCalls: [{ name: 'lookup', arguments: { id: 7 } }] } } },
      { method: 'POST', url: 'https://api.anthropic.com/v1/messages', response: { llm: { api: 'anthropic.messages', text: 'Claude, served.', usage: { inputTokens: 3, outputTokens: 4 } } } },
    ],
  },
};

let serve: ServeProcess;
let testId: string;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'llm-serve-'));
  const file = join(dir, 'llm.json');
  await writeFile(file, JSON.stringify(scenarios));
  serve = await startServe([file]);
  testId = randomUUID();
  const switched = await fetch(`${serve.url}/__scenario__`, { method: 'POST', headers: { 'x-harness-test-id': testId, 'content-type': 'application/json' }, body: '{"scenario":"llm"}' });
  expect(switched.status).toBe(200);
});
afterAll(() => serve?.stop());

test('the openai SDK, pointed at the server, reads a chat stream and a chat.completion', async () => {
  const openai = new OpenAI({ apiKey: 'sk-test-not-a-key', baseURL: `${serve.url}/https/api.openai.com/v1`, defaultHeaders: { 'x-harness-test-id': testId }, maxRetries: 0 });
  const final = await openai.chat.completions.stream({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }).finalChatCompletion();
  expect(final.choices[0]!.message).toMatchObject({ content: 'From the server.', tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'lookup', arguments: '{"id":7}' } }] });
  const completion = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
  expect(completion.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { content: 'From the server.' } });
});

test('the anthropic SDK, pointed at the server, reads finalMessage()', async () => {
  const anthropic = new Anthropic({ apiKey: 'sk-ant-test-not-a-key', baseURL: `${serve.url}/https/api.anthropic.com`, defaultHeaders: { 'x-harness-test-id': testId }, maxRetries: 0 });
  const message = await anthropic.messages.stream({ model: 'claude-sonnet-5-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }).finalMessage();
  expect(message.content).toEqual([{ type: 'text', text: 'Claude, served.', citations: null }]);
  expect(message).toMatchObject({ stop_reason: 'end_turn', usage: { input_tokens: 3, output_tokens: 4 } });
});
