/**
 * The real OpenAI SDK with contracts on: a minimal OpenAPI 3.1 document for the one endpoint
 * the app calls (chat completions), a correct mock that breaks nothing, and a drifted one whose
 * violation the journal shows while the SDK still gets its answer ('warn').
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import OpenAI from 'openai';
import { createHarness } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { harnessMiddleware } from 'scenario-harness/express';
import { afterAll, beforeAll, expect, test } from 'vitest';

const COMPLETIONS = 'https://api.openai.com/v1/chat/completions';

/** Chat completions as OpenAI's published document describes them, cut to what this app sends and reads. */
const document = {
  openapi: '3.1.0',
  info: { title: 'OpenAI chat completions (cut down)', version: '2.3.0' },
  servers: [{ url: 'https://api.openai.com/v1' }],
  paths: {
    '/chat/completions': {
      post: {
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['model', 'messages'],
                properties: {
                  model: { type: 'string' },
                  messages: { type: 'array', minItems: 1, items: { type: 'object', required: ['role', 'content'], properties: { role: { enum: ['system', 'user', 'assistant', 'developer'] }, content: { type: 'string' } } } },
                  stream: { type: ['boolean', 'null'] },
                },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'A chat completion',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id', 'object', 'created', 'model', 'choices'],
                  properties: {
                    id: { type: 'string' },
                    object: { const: 'chat.completion' },
                    created: { type: 'integer' },
                    model: { type: 'string' },
                    choices: {
                      type: 'array',
                      items: {
                        type: 'object',
                        required: ['index', 'message', 'finish_reason'],
                        properties: {
                          index: { type: 'integer' },
                          finish_reason: { enum: ['stop', 'length', 'tool_calls', 'content_filter', 'function_call'] },
                          message: { type: 'object', required: ['role', 'content'], properties: { role: { const: 'assistant' }, content: { type: ['string', 'null'] } } },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

const completion = (created: unknown) => ({ id: 'chatcmpl-1', object: 'chat.completion', created, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'It ships tomorrow.', refusal: null }, finish_reason: 'stop', logprobs: null }] });

// Built before the harness starts, as apps build SDK clients; no retries, so one call is one call.
const openai = new OpenAI({ apiKey: 'sk-test-not-a-real-key', maxRetries: 0 });
const harness = createHarness({
  enabled: true,
  announce: false,
  unhandled: 'error',
  logger: { warn: () => {}, error: () => {} },
  scenarios: {
    default: { name: 'Fits', mocks: [{ method: 'POST', url: COMPLETIONS, response: { body: completion(1_700_000_000) } }] },
    drifted: { name: 'Drifted', mocks: [{ method: 'POST', url: COMPLETIONS, response: { body: completion('yesterday') } }] },
  },
  contracts: { openapi: [document] },
});
let server: Server;
let origin: string;

beforeAll(async () => {
  await harness.start();
  const app = express();
  app.use(harnessMiddleware(harness));
  app.post('/ask', express.json(), async (req, res) => {
    const answer = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: (req.body as { question: string }).question }] });
    res.json({ answer: answer.choices[0]?.message.content });
  });
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await harness.stop();
});

async function ask(scenario: 'default' | 'drifted') {
  const client = createHarnessClient({ baseURL: origin, testId: randomUUID() });
  await client.switchScenario(scenario);
  const response = await fetch(`${origin}/ask`, { method: 'POST', headers: { ...client.headers, 'content-type': 'application/json' }, body: JSON.stringify({ question: 'When does my order ship?' }) });
  return { client, body: (await response.json()) as unknown };
}

test('the SDK\'s request and a correct mock fit the document: no violation', async () => {
  const { client, body } = await ask('default');
  expect(body).toEqual({ answer: 'It ships tomorrow.' });
  const checked = await client.expectNoContractViolations();
  expect(checked.map((call) => [call.method, call.url, call.contractViolations])).toEqual([['POST', COMPLETIONS, []]]);
});

test('a mock that drifted from the document is named, while the SDK still gets its answer', async () => {
  const { client, body } = await ask('drifted');
  expect(body).toEqual({ answer: 'It ships tomorrow.' });
  await expect(client.expectNoContractViolations()).rejects.toThrow('- response.body.created: expected integer, got the string "yesterday" (POST /chat/completions in contracts.openapi[0] ("OpenAI chat completions (cut down)"))');
});
