/**
 * `response.llm` as a definition: refused with the field named when wrong, read from a YAML
 * scenario file, and added by a test for itself over HTTP (per-test mocks share the schema).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import { createHarness, loadScenarios, type Mock } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startLlmApp } from './llm-app.js';

const make = (response: object) => () => createHarness({ enabled: true, scenarios: { default: { name: 'D', mocks: [{ url: 'https://api.openai.com/v1/chat/completions', response }] } } });

test('a bad api, field or combination is refused at load, naming the field', () => {
  expect(make({ llm: { api: 'openai.chats', text: 'x' } })).toThrow(/response\.llm\.api: expected one of 'openai\.chat', 'openai\.responses', 'anthropic\.messages', 'gemini'/);
  expect(make({ llm: { api: 'gemini', text: 'x', finish: 'done' } })).toThrow(/response\.llm\.finish: expected one of 'stop', 'length', 'tool_calls', 'content_filter'/);
  expect(make({ llm: { api: 'gemini', text: 'x', tokens: 3 } })).toThrow(/response\.llm.*unknown key "tokens"; allowed keys: "api", "text"/);
  expect(make({ llm: { api: 'gemini', toolCalls: [{ arguments: {} }] } })).toThrow(/response\.llm\.toolCalls\[0\]\.name/);
  expect(make({ llm: { api: 'gemini', toolCalls: [{ name: 'f' }] } })).toThrow(/response\.llm\.toolCalls\[0\]\.arguments: expected the arguments: an object, or a string holding a JSON object/);
  expect(make({ llm: { api: 'gemini', toolCalls: [{ name: 'f', arguments: '{"a":' }] } })).toThrow(/response\.llm\.toolCalls\[0\]\.arguments: expected the arguments/);
  expect(make({ llm: { api: 'gemini', toolCalls: [{ name: 'f', arguments: [1] }] } })).toThrow(/response\.llm\.toolCalls\[0\]\.arguments: expected the arguments/);
  expect(make({ llm: { api: 'gemini', text: 'x', usage: { inputTokens: -1 } } })).toThrow(/response\.llm\.usage\.inputTokens/);
  expect(make({ llm: { api: 'gemini', text: 'x', chunking: 'sentence' } })).toThrow(/response\.llm\.chunking: expected 'token', 'word' or \{ chars/);
  expect(make({ llm: { api: 'gemini' } })).toThrow(/response\.llm: needs at least one of "text", "toolCalls" and "reasoning"/);
  expect(make({ body: 'a', llm: { api: 'gemini', text: 'x' } })).toThrow(/response\.llm: cannot be combined with "body": give one of body, bodyBase64, stream and llm/);
  expect(make({ stream: { chunks: ['a'] }, llm: { api: 'gemini', text: 'x' } })).toThrow(/response\.llm: cannot be combined with "stream"/);
  expect(make({ llm: { api: 'openai.chat', text: 'Hi {{bodyy.x}}' } })).toThrow(/response\.llm\.text.*reads nothing/);
});

const YAML = `
default:
  name: Default
  mocks: []
support:
  name: Support bot
  mocks:
    - method: POST
      url: https://api.openai.com/v1/chat/completions
      response:
        llm:
          api: openai.chat
          text: "Your order {{body.metadata.order}} ships today."
          usage: { inputTokens: 11, outputTokens: 6 }
`;

let app: Awaited<ReturnType<typeof startLlmApp>>;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'llm-scenarios-'));
  await writeFile(join(dir, 'support.yaml'), YAML);
  const scenarios = await loadScenarios(join(dir, 'support.yaml'));
  app = await startLlmApp(scenarios, () => {
    const openai = new OpenAI({ apiKey: 'sk-test-not-a-key', maxRetries: 0 });
    return {
      chat: async () => {
        const stream = openai.chat.completions.stream({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Where is my order?' }], metadata: { order: 'A-17' } });
        return (await stream.finalChatCompletion()).choices[0]!.message.content;
      },
    };
  });
});
afterAll(() => app?.stop());

test('an llm mock from a YAML scenario file answers the SDK, its template filled in', async () => {
  expect(await app.post<string>('chat', 'support')).toBe('Your order A-17 ships today.');
});

test("a test's own llm mock, added over HTTP, answers before its scenario; a bad one is refused naming the field", async () => {
  const client = createHarnessClient({ baseURL: app.origin, testId: randomUUID(), logger: { warn: () => {} } });
  await client.switchScenario('support');
  const own: Mock = { method: 'POST', url: 'https://api.openai.com/v1/chat/completions', response: { llm: { api: 'openai.chat', text: 'Delayed, sorry.' } } };
  expect(await client.use(own)).toBe(1);
  const response = await fetch(`${app.origin}/chat`, { method: 'POST', headers: { ...client.headers, 'content-type': 'application/json' }, body: '{}' });
  expect(await response.json()).toEqual({ ok: true, result: 'Delayed, sorry.' });
  await expect(client.use({ ...own, response: { llm: { api: 'mistral', text: 'x' } } } as unknown as Mock)).rejects.toThrow(/llm\.api/);
});
