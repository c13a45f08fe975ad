/**
 * Contracts on LLM answers with `onViolation: 'error'` and an API document beside them (issue 40,
 * item 5): `llm` checks are on whenever `contracts` is set. An answer that breaks its request's
 * schemas fails the app's call as an OpenAPI violation does (the `openai` SDK sees a connection
 * error whose cause names the violation); one that fits is answered; the journal lists the
 * violations either way, the document's and the request's schemas' together.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startLlmContractApp } from './llm-contract-app.js';

const CHAT = 'https://api.openai.com/v1/chat/completions';
const QUOTE = { type: 'object', properties: { product: { type: 'string' }, price: { type: 'number' } }, required: ['product', 'price'], additionalProperties: false };

/** Chat completions, cut down to a request that must name its model with a `gpt-` prefix. */
const document = {
  openapi: '3.1.0',
  info: { title: 'Chat (cut down)', version: '1' },
  servers: [{ url: 'https://api.openai.com/v1' }],
  paths: {
    '/chat/completions': {
      post: {
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['model'], properties: { model: { type: 'string', pattern: '^gpt-' } } } } } },
        responses: { '200': { description: 'A completion', content: { 'application/json': { schema: { type: 'object' } }, 'text/event-stream': { schema: { type: 'string' } } } } },
      },
    },
  },
};

const chat = (text: string) => ({ method: 'POST' as const, url: CHAT, response: { llm: { api: 'openai.chat' as const, text } } });
const scenarios = {
  default: { name: 'Nothing', mocks: [] },
  fits: { name: 'A quote that fits', mocks: [chat('{"product":"Lamp","price":12.5}')] },
  breaks: { name: 'A price as text', mocks: [chat('{"product":"Lamp","price":"12.50"}')] },
};

let app: Awaited<ReturnType<typeof startLlmContractApp>>;
beforeAll(async () => {
  app = await startLlmContractApp(scenarios, { openapi: [document], onViolation: 'error' }, () => {
    const openai = new OpenAI({ apiKey: 'sk-test-not-a-key', maxRetries: 0 });
    const ask = (model: string, stream: boolean) => async () => {
      const params = { model, messages: [{ role: 'user' as const, content: 'How much is the lamp?' }], response_format: { type: 'json_schema' as const, json_schema: { name: 'quote', schema: QUOTE } } };
      if (!stream) return (await openai.chat.completions.create(params)).choices[0]!.message.content;
      const final = await openai.chat.completions.stream(params).finalChatCompletion();
      return final.choices[0]!.message.content;
    };
    return { chat: ask('gpt-4o-mini', false), 'chat-stream': ask('gpt-4o-mini', true), 'chat-other-model': ask('o4-mini', false) };
  });
});
afterAll(() => app?.stop());

const PRICE = `response.llm.text: breaks the request's response_format.json_schema.schema at $.price: expected number, got the string "12.50" (openai.chat)`;

test("an answer that fits the request's schema and a request that fits the document are answered", async () => {
  for (const route of ['chat', 'chat-stream']) {
    const posted = await app.post(route, 'fits');
    expect(posted.answer, route).toEqual({ ok: true, result: '{"product":"Lamp","price":12.5}' });
    await posted.client.expectNoContractViolations();
    expect((await posted.client.calls())[0]!.contractViolations).toEqual([]);
  }
});

test("an answer that breaks the request's schema fails the SDK's call, naming the violation; the journal lists it", async () => {
  for (const route of ['chat', 'chat-stream']) {
    const posted = await app.post(route, 'breaks');
    expect(posted.answer.ok, route).toBe(false);
    expect(posted.answer.error).toContain('Connection error.');
    expect(posted.answer.error).toContain(`the mock's llm answer breaks the schemas the request sent (contracts.onViolation: 'error'):\n  - ${PRICE}\nFix the mock's llm answer (or the schema the app sends) so they fit, or set contracts: { onViolation: 'warn' } to answer anyway.`);
    const [entry] = await posted.client.calls();
    expect(entry).toMatchObject({ answered: true, status: 200, contractViolations: [PRICE] });
  }
});

test("a call that breaks both the document and the request's schema lists both, the document's first", async () => {
  const posted = await app.post('chat-other-model', 'breaks');
  expect(posted.answer.ok).toBe(false);
  expect(posted.answer.error).toContain("the call breaks its API document and the schemas the request sent (contracts.onViolation: 'error')");
  const [entry] = await posted.client.calls();
  await expect(posted.client.expectNoContractViolations()).rejects.toThrow("to fit their API documents and the schemas their requests sent (createHarness({ contracts }))");
  expect(entry!.contractViolations).toEqual([`request.body.model: expected a string matching /^gpt-/, got the string "o4-mini" (POST /chat/completions in contracts.openapi[0] ("Chat (cut down)"))`, PRICE]);
});
