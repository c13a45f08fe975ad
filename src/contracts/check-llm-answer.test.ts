import { expect, test } from 'vitest';
import type { LlmReplyAnswer } from '../core/interception/mock-reply.js';
import { createLlmAnswerChecker } from './check-llm-answer.js';
import { fromGeminiSchema } from './llm-request-schemas.js';

const answer = (api: LlmReplyAnswer['api'], requestBody: Record<string, unknown>, text = '', toolCalls: LlmReplyAnswer['toolCalls'] = []): LlmReplyAnswer => ({ api, text, toolCalls, requestBody });
const messagesOf = (found: { message: string }[] | undefined) => found?.map((violation) => violation.message);

test("Gemini's Schema read as JSON Schema: lower-case types, nullable, int64 counts, its own keywords left out", () => {
  const schema = {
    type: 'OBJECT',
    propertyOrdering: ['colour', 'sizes'],
    properties: {
      colour: { type: 'STRING', format: 'enum', enum: ['red', 'green'], nullable: true },
      sizes: { type: 'ARRAY', items: { type: 'INTEGER' }, minItems: '1', maxItems: '3' },
      anything: { type: 'TYPE_UNSPECIFIED', example: 4 },
    },
  };
  expect(fromGeminiSchema(schema)).toEqual({
    type: 'object',
    properties: {
      colour: { type: ['string', 'null'], enum: ['red', 'green', null] },
      sizes: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 3 },
      anything: {},
    },
  });
  // The request's own schema is left as it was.
  expect(schema.properties.sizes.minItems).toBe('1');
});

test("Gemini's text/x.enum: the text itself is one of the values; snake_case fields are read too", () => {
  const checker = createLlmAnswerChecker();
  const body = { generation_config: { response_mime_type: 'text/x.enum', response_schema: { type: 'STRING', enum: ['red', 'green'] } } };
  expect(checker.check(answer('gemini', body, 'red'))).toEqual([]);
  expect(messagesOf(checker.check(answer('gemini', body, 'blue')))).toEqual([`response.llm.text: breaks the request's generationConfig.responseSchema at $: expected one of "red", "green", got the string "blue"`]);
});

test('json_object asks for a JSON object; a draft-07 schema with definitions and $refs compiles as written', () => {
  const checker = createLlmAnswerChecker();
  expect(messagesOf(checker.check(answer('openai.chat', { response_format: { type: 'json_object' } }, '[1]')))).toEqual([`response.llm.text: breaks the request's response_format (json_object) at $: expected object, got an array`]);
  const schema = { $schema: 'http://json-schema.org/draft-07/schema#', $id: 'quote', definitions: { money: { type: 'number' } }, type: 'object', properties: { price: { $ref: '#/definitions/money' } } };
  const body = { response_format: { type: 'json_schema', json_schema: { name: 'q', schema } } };
  expect(checker.check(answer('openai.chat', body, '{"price":1}'))).toEqual([]);
  // The same schema again: compiled once, no clash of its $id.
  expect(messagesOf(checker.check(answer('openai.chat', body, '{"price":"1"}')))).toEqual([`response.llm.text: breaks the request's response_format.json_schema.schema at $.price: expected number, got the string "1"`]);
});

test('a schema that does not compile is named, not thrown; arguments that are not JSON are named', () => {
  const checker = createLlmAnswerChecker();
  const body = { tools: [{ name: 'lookup', input_schema: { type: 'object', properties: { id: { type: 'string', pattern: '([' } } } }] };
  expect(messagesOf(checker.check(answer('anthropic.messages', body, '', [{ name: 'lookup', arguments: '{"id":"a"}' }])))).toEqual([expect.stringMatching(/^response\.llm\.toolCalls\[0\]\.arguments: not checked: the request's tools\[0\]\.input_schema does not compile \(.+\); fix the schema the app sends$/)]);
  const tools = { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] };
  expect(messagesOf(checker.check(answer('openai.chat', tools, '', [{ name: 'f', arguments: 'city=Paris' }])))).toEqual([expect.stringMatching(/^response\.llm\.toolCalls\[0\]\.arguments: expected JSON for tool call "f", got "city=Paris" \(.+\)$/)]);
});

test('an answer that only calls tools leaves response_format alone; a request with no schema and an answer with no tool call is not checked', () => {
  const checker = createLlmAnswerChecker();
  const body = { response_format: { type: 'json_schema', json_schema: { name: 'q', schema: { type: 'object' } } }, tools: [{ type: 'function', function: { name: 'f' } }] };
  expect(checker.check(answer('openai.chat', body, '', [{ name: 'f', arguments: '{}' }]))).toEqual([]);
  expect(checker.check(answer('openai.chat', { model: 'gpt-4o' }, 'Hello'))).toBeUndefined();
  expect(checker.check(answer('openai.chat', {}, 'Hello'))).toBeUndefined();
  // A tool call when the request offers none.
  expect(messagesOf(checker.check(answer('openai.responses', { input: 'x' }, '', [{ name: 'f', arguments: '{}' }])))).toEqual(['response.llm.toolCalls[0].name: "f" is not a tool the request offers (it offers none)']);
});

test("Anthropic's older output_format, and a server tool without input_schema, are read", () => {
  const checker = createLlmAnswerChecker();
  const body = { output_format: { type: 'json_schema', schema: { type: 'object', required: ['a'] } }, tools: [{ type: 'web_search_20250305', name: 'web_search' }] };
  expect(messagesOf(checker.check(answer('anthropic.messages', body, '{}', [{ name: 'web_search', arguments: '{"query":"x"}' }])))).toEqual([`response.llm.text: breaks the request's output_format.schema at $.a: missing: the schema requires it`]);
});

test('a pattern that could backtrack catastrophically is left out of the check, and said once', () => {
  const warnings: string[] = [];
  const checker = createLlmAnswerChecker({ warn: (message) => warnings.push(message) });
  const body = { text: { format: { type: 'json_schema', name: 's', schema: { type: 'object', properties: { slug: { type: 'string', pattern: '^([a-z0-9]+-?)+$' } } } } } };
  // Run, the pattern would take minutes on this slug (24 s at 28 letters, twice that a letter more).
  const slow = `{"slug":"${'a'.repeat(30)}!"}`;
  const started = performance.now();
  expect(checker.check(answer('openai.responses', body, slow))).toEqual([]);
  expect(checker.check(answer('openai.responses', body, slow))).toEqual([]);
  // Loose: looking at the pattern takes a few hundred milliseconds on a loaded machine.
  expect(performance.now() - started).toBeLessThan(20_000);
  expect(warnings).toEqual([expect.stringMatching(/^Contracts: the llm request's text\.format\.schema: #\/properties\/slug\/pattern: the pattern \/\^\(\[a-z0-9\]\+-\?\)\+\$\/ can backtrack catastrophically/)]);
});
