/**
 * `contracts.llm` (issue 40, item 5): a bad value is refused at creation, naming the field;
 * `{ llm: true }` alone needs no document; `llm: false` beside documents leaves `llm` answers to
 * the documents alone (a real `openai` SDK call whose answer breaks its response_format).
 */
import OpenAI from 'openai';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startLlmContractApp } from './llm-contract-app.js';

const CHAT = 'https://api.openai.com/v1/chat/completions';
const empty = { default: { name: 'Nothing', mocks: [] } };
const create = (contracts: unknown) => () => createHarness({ enabled: true, announce: false, scenarios: empty, contracts: contracts as never });

test('a contracts.llm that is not a boolean, or a contracts that checks nothing, is refused by name', () => {
  expect(create({ llm: 'yes' })).toThrow('Invalid createHarness options: expected "contracts.llm" to be true or false, instead got "yes".');
  expect(create({ llm: false })).toThrow(`Invalid createHarness options: "contracts" checks nothing: "contracts.llm" is false and there is no "contracts.openapi". Give the API documents, as in contracts: { openapi: ['./openapi/payments.yaml'], onViolation: 'warn' }, or leave "contracts" out.`);
  expect(create({ onViolation: 'error' })).toThrow(`expected "contracts.openapi" to be a non-empty array of OpenAPI documents (file paths, or documents as objects), instead got undefined. For example: contracts: { openapi: ['./openapi/payments.yaml'], onViolation: 'warn' }. To check only llm answers against their requests' schemas: contracts: { llm: true }.`);
  expect(create({ openapi: [], llm: true })).toThrow('expected "contracts.openapi" to be a non-empty array of OpenAPI documents');
  expect(create({ lm: true })).toThrow('"contracts.lm" is not a contracts option (did you mean "llm"?); use openapi, llm, onViolation or allowRefsOutside.');
});

test('contracts: { llm: true } alone is valid and reads no document at start(); disabled, it does nothing', async () => {
  // intercept: false, so it does not take over this process's calls from the app's harness below.
  const harness = createHarness({ enabled: true, intercept: false, announce: false, scenarios: empty, contracts: { llm: true, onViolation: 'error' } });
  await expect(harness.start()).resolves.toBeUndefined();
  await harness.stop();
  const disabled = createHarness({ enabled: false, announce: false, scenarios: empty, contracts: { llm: true } });
  await expect(disabled.start()).resolves.toBeUndefined();
});

/** Any request to chat completions fits this document. */
const document = {
  openapi: '3.1.0',
  info: { title: 'Chat (anything)', version: '1' },
  servers: [{ url: 'https://api.openai.com/v1' }],
  paths: { '/chat/completions': { post: { responses: { '200': { description: 'A completion', content: { 'application/json': { schema: { type: 'object' } } } } } } } },
};

let app: Awaited<ReturnType<typeof startLlmContractApp>>;
beforeAll(async () => {
  const scenarios = { ...empty, breaks: { name: 'A price as text', mocks: [{ method: 'POST' as const, url: CHAT, response: { llm: { api: 'openai.chat' as const, text: '{"price":"12.50"}' } } }] } };
  app = await startLlmContractApp(scenarios, { openapi: [document], llm: false, onViolation: 'error' }, () => {
    const openai = new OpenAI({ apiKey: 'sk-test-not-a-key', maxRetries: 0 });
    const schema = { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] };
    return {
      chat: async () => (await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Price?' }], response_format: { type: 'json_schema', json_schema: { name: 'quote', schema } } })).choices[0]!.message.content,
    };
  });
});
afterAll(() => app?.stop());

test('llm: false beside documents: the answer that breaks its response_format is checked against the document only', async () => {
  const posted = await app.post('chat', 'breaks');
  expect(posted.answer).toEqual({ ok: true, result: '{"price":"12.50"}' });
  expect((await posted.client.calls())[0]!.contractViolations).toEqual([]);
});
