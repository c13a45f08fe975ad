/**
 * Contracts on LLM answers (issue 40, item 5): with `contracts: { llm: true }`, an `llm` mock's
 * answer is checked against the schemas the app's own request sent, as the real SDKs send them:
 * `openai` (chat.completions with response_format json_schema, and tools; responses with
 * text.format), `@anthropic-ai/sdk` (tools' input_schema, output_config.format) and
 * `@google/genai` (responseSchema and function declarations, in Gemini's upper-case types). A
 * fitting answer has `contractViolations: []`; a breaking one is named in the journal and logged
 * once ('warn'), while the app still gets the answer.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, Type } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startLlmContractApp } from './llm-contract-app.js';

const CHAT = 'https://api.openai.com/v1/chat/completions';
const RESPONSES = 'https://api.openai.com/v1/responses';
const MESSAGES = 'https://api.anthropic.com/v1/messages';
const GEMINI = 'https://generativelanguage.googleapis.com/*';

/** What the app asks for: a quote as JSON. */
const QUOTE = { type: 'object', properties: { product: { type: 'string' }, price: { type: 'number' } }, required: ['product', 'price'], additionalProperties: false };
const CITY = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };

const llm = <A extends 'openai.chat' | 'openai.responses' | 'anthropic.messages' | 'gemini'>(api: A, url: string, answer: { text?: string; toolCalls?: { name: string; arguments: unknown }[] }) => ({
  method: 'POST' as const,
  url,
  response: { llm: { api, ...answer } },
});

const scenarios = {
  default: { name: 'Nothing', mocks: [] },
  'quote-fits': { name: 'A quote that fits', mocks: [llm('openai.chat', CHAT, { text: '{"product":"Lamp","price":12.5}' }), llm('openai.responses', RESPONSES, { text: '{"product":"Lamp","price":12.5}' })] },
  'quote-breaks': { name: 'A price as text', mocks: [llm('openai.chat', CHAT, { text: '{"product":"Lamp","price":"12.50"}' }), llm('openai.responses', RESPONSES, { text: '{"product":"Lamp","price":12.5,"currency":"EUR"}' })] },
  'quote-prose': { name: 'Prose instead of JSON', mocks: [llm('openai.chat', CHAT, { text: 'The lamp costs 12.50.' })] },
  computed: {
    name: 'A response function answers, echoing the question as the price',
    mocks: [{ method: 'POST' as const, url: CHAT, response: async (request: Request) => ({ llm: { api: 'openai.chat' as const, text: JSON.stringify({ product: 'Lamp', price: ((await request.json()) as { messages: { content: string }[] }).messages[0]!.content }) } }) }],
  },
  'weather-fits': { name: 'A tool call that fits', mocks: [llm('openai.chat', CHAT, { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] })] },
  'weather-breaks': { name: 'A wrong argument, an unknown tool', mocks: [llm('openai.chat', CHAT, { toolCalls: [{ name: 'get_weather', arguments: { town: 'Paris' } }, { name: 'get_time', arguments: {} }] })] },
  'claude-tools-fits': { name: 'Claude calls a tool', mocks: [llm('anthropic.messages', MESSAGES, { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] })] },
  'claude-tools-breaks': { name: 'Claude calls it with a number', mocks: [llm('anthropic.messages', MESSAGES, { text: 'Checking.', toolCalls: [{ name: 'get_weather', arguments: { city: 42 } }] })] },
  'claude-output-fits': { name: 'Claude answers JSON', mocks: [llm('anthropic.messages', MESSAGES, { text: '{"product":"Kettle","price":30}' })] },
  'claude-output-breaks': { name: 'Claude leaves the price out', mocks: [llm('anthropic.messages', MESSAGES, { text: '{"product":"Kettle"}' })] },
  'gemini-tools-fits': { name: 'Gemini calls a function', mocks: [llm('gemini', GEMINI, { toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] })] },
  'gemini-tools-breaks': { name: 'Gemini calls it with a list', mocks: [llm('gemini', GEMINI, { toolCalls: [{ name: 'get_weather', arguments: { city: ['Rome'] } }] })] },
  'gemini-json-fits': { name: 'Gemini answers JSON', mocks: [llm('gemini', GEMINI, { text: '{"product":"Vase","price":8,"tags":["glass"]}' })] },
  'gemini-json-breaks': { name: 'Gemini answers a string price', mocks: [llm('gemini', GEMINI, { text: '{"product":"Vase","price":"8","tags":null}' })] },
};

let app: Awaited<ReturnType<typeof startLlmContractApp>>;
beforeAll(async () => {
  app = await startLlmContractApp(scenarios, { llm: true }, () => {
    // Their normal https base URLs: the harness answers, nothing reaches the network.
    const openai = new OpenAI({ apiKey: 'sk-test-not-a-key', maxRetries: 0 });
    const anthropic = new Anthropic({ apiKey: 'sk-ant-test-not-a-key', maxRetries: 0 });
    const ai = new GoogleGenAI({ apiKey: 'gemini-test-not-a-key' });
    const messages = [{ role: 'user' as const, content: 'How much is the lamp?' }];
    const weather = { type: 'function' as const, function: { name: 'get_weather', strict: true, parameters: CITY } };
    const geminiCity = { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] };
    return {
      chat: async () => {
        const completion = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, response_format: { type: 'json_schema', json_schema: { name: 'quote', strict: true, schema: QUOTE } } });
        return completion.choices[0]!.message.content;
      },
      'chat-tools-stream': async () => {
        const stream = openai.chat.completions.stream({ model: 'gpt-4o-mini', messages, tools: [weather] });
        const final = await stream.finalChatCompletion();
        return final.choices[0]!.message.tool_calls?.map((call) => (call.type === 'function' ? [call.function.name, call.function.arguments] : call.type));
      },
      responses: async () => {
        const response = await openai.responses.create({ model: 'gpt-5-mini', input: 'How much is the lamp?', text: { format: { type: 'json_schema', name: 'quote', strict: true, schema: QUOTE } } });
        return response.output_text;
      },
      'claude-tools-stream': async () => {
        const stream = anthropic.messages.stream({ model: 'claude-sonnet-5-5', max_tokens: 256, messages, tools: [{ name: 'get_weather', description: 'The weather in a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }] });
        const final = await stream.finalMessage();
        return final.content.map((block) => (block.type === 'tool_use' ? [block.name, block.input] : block.type));
      },
      'claude-output': async () => {
        const message = await anthropic.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 256, messages, output_config: { format: { type: 'json_schema', schema: QUOTE } } });
        return message.content.map((block) => (block.type === 'text' ? block.text : block.type)).join('');
      },
      'gemini-tools': async () => {
        const response = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Weather in Rome?', config: { tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: geminiCity }] }] } });
        return response.functionCalls?.map((call) => [call.name, call.args]);
      },
      'gemini-json-stream': async () => {
        const config = {
          responseMimeType: 'application/json',
          responseSchema: { type: Type.OBJECT, properties: { product: { type: Type.STRING }, price: { type: Type.NUMBER }, tags: { type: Type.ARRAY, items: { type: Type.STRING }, nullable: false } }, required: ['product', 'price'] },
        };
        let text = '';
        for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'A vase, as JSON', config })) text += chunk.text ?? '';
        return text;
      },
    };
  });
});
afterAll(() => app?.stop());

/** The test's one call: its journal entry's violations. */
async function violationsOf(posted: Awaited<ReturnType<typeof app.post>>) {
  const calls = await posted.client.calls();
  expect(calls).toHaveLength(1);
  return calls[0]!.contractViolations;
}

test('openai chat.completions: a JSON answer that fits response_format has no violation', async () => {
  const posted = await app.post('chat', 'quote-fits');
  expect(posted.answer).toEqual({ ok: true, result: '{"product":"Lamp","price":12.5}' });
  expect(await violationsOf(posted)).toEqual([]);
  await posted.client.expectNoContractViolations();
});

test('openai chat.completions: a price as text breaks response_format, named with its path; logged once, and the app still gets the answer', async () => {
  const violation = `response.llm.text: breaks the request's response_format.json_schema.schema at $.price: expected number, got the string "12.50" (openai.chat)`;
  const first = await app.post('chat', 'quote-breaks');
  expect(first.answer).toEqual({ ok: true, result: '{"product":"Lamp","price":"12.50"}' });
  expect(await violationsOf(first)).toEqual([violation]);
  await expect(first.client.expectNoContractViolations()).rejects.toThrow(`to fit the schemas their requests sent (an llm answer's) (createHarness({ contracts })), but 1 call broke them (1 violation):`);
  await expect(first.client.expectNoContractViolations()).rejects.toThrow(`    - ${violation}\nFix the mock's llm answer (or the schema the app sends) so they fit.`);
  const second = await app.post('chat', 'quote-breaks');
  expect(await violationsOf(second)).toEqual([violation]);
  const lines = app.logged.filter((line) => line.includes('at $.price'));
  expect(lines).toEqual([expect.stringMatching(/^Contract violation in POST https:\/\/api\.openai\.com\/v1\/chat\/completions of test "[^"]+": response\.llm\.text: breaks .* \(openai\.chat\)\. The call was answered as the mock says \(contracts\.onViolation: 'warn'; each distinct problem is logged once\)\.$/)]);
});

test('openai chat.completions: prose where response_format asks for JSON is a violation', async () => {
  const posted = await app.post('chat', 'quote-prose');
  expect(posted.answer.ok).toBe(true);
  expect(await violationsOf(posted)).toEqual([expect.stringMatching(/^response\.llm\.text: expected JSON, as the request's response_format asks, got the text "The lamp costs 12\.50\." \(.+\) \(openai\.chat\)$/)]);
});

test("a response function's llm answer is checked against the request it answers", async () => {
  const posted = await app.post('chat', 'computed');
  expect(posted.answer).toEqual({ ok: true, result: '{"product":"Lamp","price":"How much is the lamp?"}' });
  expect(await violationsOf(posted)).toEqual([`response.llm.text: breaks the request's response_format.json_schema.schema at $.price: expected number, got the string "How much is the lamp?" (openai.chat)`]);
});

test('openai chat.completions streamed with tools: a call that fits its function parameters has no violation', async () => {
  const posted = await app.post('chat-tools-stream', 'weather-fits');
  expect(posted.answer).toEqual({ ok: true, result: [['get_weather', '{"city":"Paris"}']] });
  expect(await violationsOf(posted)).toEqual([]);
});

test('openai chat.completions streamed with tools: wrong arguments and a tool the request did not offer are violations', async () => {
  const posted = await app.post('chat-tools-stream', 'weather-breaks');
  expect(posted.answer.ok).toBe(true);
  expect(await violationsOf(posted)).toEqual([
    `response.llm.toolCalls[0].arguments: tool call "get_weather" breaks the request's tools[0].function.parameters at $.city: missing: the schema requires it (openai.chat)`,
    `response.llm.toolCalls[0].arguments: tool call "get_weather" breaks the request's tools[0].function.parameters at $.town: not in the schema, which allows no other properties (openai.chat)`,
    `response.llm.toolCalls[1].name: "get_time" is not a tool the request offers (it offers "get_weather") (openai.chat)`,
  ]);
});

test('openai responses: text.format json_schema, fitting and broken', async () => {
  const fits = await app.post('responses', 'quote-fits');
  expect(fits.answer).toEqual({ ok: true, result: '{"product":"Lamp","price":12.5}' });
  expect(await violationsOf(fits)).toEqual([]);
  const breaks = await app.post('responses', 'quote-breaks');
  expect(await violationsOf(breaks)).toEqual([`response.llm.text: breaks the request's text.format.schema at $.currency: not in the schema, which allows no other properties (openai.responses)`]);
});

test("anthropic messages.stream with tools: input that fits input_schema passes, a number for a string is named", async () => {
  const fits = await app.post('claude-tools-stream', 'claude-tools-fits');
  expect(fits.answer).toEqual({ ok: true, result: [['get_weather', { city: 'Oslo' }]] });
  expect(await violationsOf(fits)).toEqual([]);
  const breaks = await app.post('claude-tools-stream', 'claude-tools-breaks');
  expect(breaks.answer).toEqual({ ok: true, result: ['text', ['get_weather', { city: 42 }]] });
  expect(await violationsOf(breaks)).toEqual([`response.llm.toolCalls[0].arguments: tool call "get_weather" breaks the request's tools[0].input_schema at $.city: expected string, got number 42 (anthropic.messages)`]);
});

test('anthropic messages.create with output_config.format: the text is checked against its schema', async () => {
  const fits = await app.post('claude-output', 'claude-output-fits');
  expect(fits.answer).toEqual({ ok: true, result: '{"product":"Kettle","price":30}' });
  expect(await violationsOf(fits)).toEqual([]);
  const breaks = await app.post('claude-output', 'claude-output-breaks');
  expect(await violationsOf(breaks)).toEqual([`response.llm.text: breaks the request's output_config.format.schema at $.price: missing: the schema requires it (anthropic.messages)`]);
});

test("gemini generateContent with function declarations in Gemini's upper-case types: fits, and an array for a string is named", async () => {
  const fits = await app.post('gemini-tools', 'gemini-tools-fits');
  expect(fits.answer).toEqual({ ok: true, result: [['get_weather', { city: 'Rome' }]] });
  expect(await violationsOf(fits)).toEqual([]);
  const breaks = await app.post('gemini-tools', 'gemini-tools-breaks');
  expect(await violationsOf(breaks)).toEqual([`response.llm.toolCalls[0].arguments: tool call "get_weather" breaks the request's tools[0].functionDeclarations[0].parameters at $.city: expected string, got an array (gemini)`]);
});

test('gemini generateContentStream with responseSchema (application/json): fits, and a string price and a null list are named', async () => {
  const fits = await app.post('gemini-json-stream', 'gemini-json-fits');
  expect(fits.answer).toEqual({ ok: true, result: '{"product":"Vase","price":8,"tags":["glass"]}' });
  expect(await violationsOf(fits)).toEqual([]);
  const breaks = await app.post('gemini-json-stream', 'gemini-json-breaks');
  expect(await violationsOf(breaks)).toEqual([
    `response.llm.text: breaks the request's generationConfig.responseSchema at $.price: expected number, got the string "8" (gemini)`,
    `response.llm.text: breaks the request's generationConfig.responseSchema at $.tags: expected array, got null (gemini)`,
  ]);
});
