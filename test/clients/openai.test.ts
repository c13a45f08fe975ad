/**
 * The OpenAI SDK (v6), built at import time before the harness starts (openai-app.ts), driven
 * through an Express app: chat completions per test, a conversation as a sequence, JSON body
 * matching and templates, setState, and an unanswered embeddings call.
 */
import { randomUUID } from 'node:crypto';
import { defineScenarios } from 'scenario-harness';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Gate } from './gates.js';
import { openai, openaiRoutes } from './openai-app.js';
import { useClientApp } from './use-client-app.js';

const COMPLETIONS = 'https://api.openai.com/v1/chat/completions';

/** A chat completion as the API answers it. */
const completion = (content: string, model = 'gpt-4o-mini') => ({
  id: 'chatcmpl-test',
  object: 'chat.completion',
  created: 1_700_000_000,
  model,
  choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
  usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
});

/** One streamed chunk as the API sends it (`data:` of a Server-Sent Event). */
const chunk = (content: string) => ({ id: 'chatcmpl-s', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content }, finish_reason: null }] });

const scenarios = defineScenarios({
  default: {
    name: 'The assistant answers',
    mocks: [
      {
        method: 'POST',
        url: COMPLETIONS,
        match: { body: { model: 'gpt-4o-mini', messages: [{ role: 'system', content: { contains: 'support' } }, { role: 'user', content: { contains: 'order' } }] } },
        response: { body: completion('About "{{body.messages.1.content}}": it ships tomorrow.', '{{body.model}}') },
        afterResponse: { setState: { 'questions[]': '{{body.messages.1.content}}', 'support.model': '{{body.model}}' } },
      },
      { method: 'POST', url: COMPLETIONS, response: { body: completion('How can I help?') } },
    ],
  },
  alice: { name: 'Alice bot', mocks: [{ method: 'POST', url: COMPLETIONS, response: { body: completion('I am the alice bot') } }] },
  bob: { name: 'Bob bot', mocks: [{ method: 'POST', url: COMPLETIONS, response: { body: completion('I am the bob bot') } }] },
  streaming: {
    name: 'A streamed answer',
    mocks: [
      {
        method: 'POST',
        url: COMPLETIONS,
        match: { body: { stream: true } },
        response: { stream: { events: [...['Hel', 'lo ', '{{body.messages.0.content}}'].map((content) => ({ data: chunk(content) })), { data: '[DONE]' }], intervalMs: 2 } },
      },
    ],
    variants: {
      broken: { mocks: [{ method: 'POST', url: COMPLETIONS, response: { stream: { events: [{ data: chunk('Hel') }, { data: chunk('lo') }, { data: chunk('!') }], failAfter: 2 } } }] },
    },
  },
  conversation: {
    name: 'A three-turn conversation',
    mocks: [{ method: 'POST', url: COMPLETIONS, sequence: { responses: [{ body: completion('Hi!') }, { body: completion('Tell me more.') }, { body: completion('Goodbye.') }] } }],
  },
});

/** The API's published document, cut down to what this suite calls: the suite runs again with contracts on. */
const OPENAI_DOCUMENT = fileURLToPath(new URL('./contracts/openai-openapi.yaml', import.meta.url));

for (const contracts of [undefined, { openapi: [OPENAI_DOCUMENT] }]) {
  describe(contracts === undefined ? 'the OpenAI SDK' : 'the OpenAI SDK, contracts on (OpenAI\'s document)', () => {
    const app = useClientApp({ scenarios, routes: openaiRoutes, contracts });

    test('the client holds the fetch it saw at import time, not the harness\'s patch (the premise of this file)', () => {
      expect((openai as unknown as { fetch: unknown }).fetch).not.toBe(globalThis.fetch);
    });

    test('three test IDs in flight at once each get their own scenario\'s completion', async () => {
      const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
      await app().switchScenario(a, 'alice');
      await app().switchScenario(b, 'bob');
      const [gateA, gateB, gateC] = [a, b, c].map((id) => app().gates.gate(id)) as [Gate, Gate, Gate];
      try {
        const requestA = app().call(a, `/assistant/greet-twice/${a}`);
        await gateA.arrived;
        const requestB = app().call(b, `/assistant/greet-twice/${b}`);
        await gateB.arrived;
        const requestC = app().call(c, `/assistant/greet-twice/${c}`);
        await gateC.arrived;
        gateC.release();
        expect(await requestC).toEqual({ status: 200, body: { first: 'How can I help?', second: 'How can I help?' } });
        gateA.release();
        expect(await requestA).toEqual({ status: 200, body: { first: 'I am the alice bot', second: 'I am the alice bot' } });
        gateB.release();
        expect(await requestB).toEqual({ status: 200, body: { first: 'I am the bob bot', second: 'I am the bob bot' } });
      } finally {
        [gateA, gateB, gateC].forEach((gate) => gate.release());
      }
    });

    test('a conversation is a sequence: each test ID has its own turn count, and the last answer repeats', async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      await app().switchScenario(a, 'conversation');
      await app().switchScenario(b, 'conversation');
      const say = async (testId: string) => ((await app().call(testId, '/assistant/chat', { body: { message: 'go on' } })).body as { answer: string }).answer;
      expect([await say(a), await say(a), await say(b), await say(a), await say(a), await say(b)]).toEqual(['Hi!', 'Tell me more.', 'Hi!', 'Goodbye.', 'Goodbye.', 'Tell me more.']);
    });

    test('the JSON body the SDK sends is matched (model, roles, message text), and feeds templates', async () => {
      const testId = randomUUID();
      expect(await app().call(testId, '/support/ask', { body: { question: 'Where is my order #7?' } })).toEqual({
        status: 200,
        body: { answer: 'About "Where is my order #7?": it ships tomorrow.', model: 'gpt-4o-mini' },
      });
      // No system prompt, or no "order" in the question: the general mock answers instead.
      expect((await app().call(testId, '/assistant/chat', { body: { message: 'Where is my order #7?' } })).body).toMatchObject({ answer: 'How can I help?' });
      expect((await app().call(testId, '/support/ask', { body: { question: 'Do you ship to Mars?' } })).body).toMatchObject({ answer: 'How can I help?' });
    });

    test('afterResponse.setState is read back through GET /__harness__/state', async () => {
      const testId = randomUUID();
      await app().call(testId, '/support/ask', { body: { question: 'Cancel order 1' } });
      await app().call(testId, '/support/ask', { body: { question: 'Refund order 2' } });
      expect(await app().state(testId)).toEqual({ status: 200, body: { testId, state: { questions: ['Cancel order 1', 'Refund order 2'], 'support.model': 'gpt-4o-mini' } } });
    });

    test('an unanswered call (embeddings) fails in the app with an error that names scenario-harness and the test ID', async () => {
      const testId = randomUUID();
      const reply = await app().call(testId, '/search/embed', { body: { text: 'red shoes' } });
      expect(reply.status).toBe(502);
      const messages = (reply.body as { errors: string[] }).errors;
      // The SDK's own message comes first ("Connection error."); the harness's is in its cause chain.
      expect(messages[0]).toBe('Connection error.');
      expect(messages.find((message) => message.includes('[scenario-harness] No mock answers POST https://api.openai.com/v1/embeddings'))).toContain(`for test "${testId}"`);
    });

    test('stream: true is answered as Server-Sent Events the SDK parses chunk by chunk; failAfter breaks it part way', async () => {
      const [whole, broken] = [randomUUID(), randomUUID()];
      await app().switchScenario(whole, 'streaming');
      expect(await app().call(whole, '/assistant/stream', { body: { message: 'Ada' } })).toEqual({ status: 200, body: { deltas: ['Hel', 'lo ', 'Ada'], complete: true } });
      await app().switchScenario(broken, 'streaming', 'broken');
      const { body } = await app().call(broken, '/assistant/stream', { body: { message: 'Ada' } });
      expect(body).toMatchObject({ deltas: ['Hel', 'lo'], complete: false });
    });

    if (contracts !== undefined) {
      test("with contracts on, every answered call was checked against OpenAI's document and fits it", async () => {
        const testId = randomUUID();
        await app().switchScenario(testId, 'streaming');
        await app().call(testId, '/assistant/stream', { body: { message: 'Ada' } });
        const { body } = await app().call(testId, '/__harness__/journal');
        const calls = (body as { calls: { method: string; url: string; status: number; contractViolations?: string[] }[] }).calls;
        expect(calls.map(({ method, url, status, contractViolations }) => [method, url, status, contractViolations])).toEqual([['POST', 'https://api.openai.com/v1/chat/completions', 200, []]]);
      });
    }
  });
}
