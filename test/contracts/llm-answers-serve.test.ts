/**
 * Contracts on LLM answers through the standalone server (issue 40, item 5): `serve --openapi
 * <doc> --on-contract-violation error` checks `llm` answers against their request's schemas too.
 * The `openai` SDK, pointed at the server, gets a fitting answer, and a 502 naming the violation
 * in the server's words for one that breaks its `response_format`; the journal lists it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServe, type ServeProcess } from '../standalone/serve-process.js';

const CHAT = 'https://api.openai.com/v1/chat/completions';
const chat = (text: string) => ({ method: 'POST', url: CHAT, response: { llm: { api: 'openai.chat', text } } });
const scenarios = { default: { name: 'Nothing', mocks: [] }, fits: { name: 'Fits', mocks: [chat('{"price":12.5}')] }, breaks: { name: 'Breaks', mocks: [chat('{"price":"12.50"}')] } };
/** Any chat completions request fits it: what breaks is the answer, against the request's own schema. */
const document = {
  openapi: '3.1.0',
  info: { title: 'Chat', version: '1' },
  servers: [{ url: 'https://api.openai.com/v1' }],
  paths: { '/chat/completions': { post: { responses: { '200': { description: 'A completion', content: { 'application/json': { schema: { type: 'object' } } } } } } } },
};

let serve: ServeProcess;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'llm-contracts-serve-'));
  await writeFile(join(dir, 'llm.json'), JSON.stringify(scenarios));
  await writeFile(join(dir, 'chat.json'), JSON.stringify(document));
  serve = await startServe(['--openapi', join(dir, 'chat.json'), '--on-contract-violation', 'error', join(dir, 'llm.json')]);
});
afterAll(() => serve?.stop());

async function ask(scenario: string) {
  const testId = randomUUID();
  const headers = { 'x-harness-test-id': testId };
  expect((await fetch(`${serve.url}/__scenario__`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ scenario }) })).status).toBe(200);
  const openai = new OpenAI({ apiKey: 'sk-test-not-a-key', baseURL: `${serve.url}/https/api.openai.com/v1`, defaultHeaders: headers, maxRetries: 0 });
  const schema = { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] };
  const answer = openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Price?' }], response_format: { type: 'json_schema', json_schema: { name: 'quote', schema } } });
  const journal = async () => (await (await fetch(`${serve.url}/__harness__/journal`, { headers })).json()) as { calls: { contractViolations?: string[] }[] };
  return { answer, journal };
}

test('the server answers an llm answer that fits its request, and says so in the start-up line', async () => {
  expect(serve.output()).toContain("and each llm answer against its request's schemas; the journal lists its contractViolations.");
  const { answer, journal } = await ask('fits');
  expect((await answer).choices[0]!.message.content).toBe('{"price":12.5}');
  expect((await journal()).calls.map((call) => call.contractViolations)).toEqual([[]]);
});

test("an llm answer that breaks its request's response_format is answered 502, naming it in the server's words", async () => {
  const violation = `response.llm.text: breaks the request's response_format.json_schema.schema at $.price: expected number, got the string "12.50" (openai.chat)`;
  const { answer, journal } = await ask('breaks');
  const failed = await answer.then(
    () => undefined,
    (error: unknown) => error as InstanceType<typeof OpenAI.APIError>,
  );
  expect(failed?.status).toBe(502);
  // The SDK keeps the answer's "error" field: the server's message.
  expect(failed?.error).toContain(`: the mock's llm answer breaks the schemas the request sent (--on-contract-violation error):\n  - ${violation}\nFix the mock's llm answer (or the schema the service sends) so they fit, or start the server with --on-contract-violation warn to answer anyway.`);
  expect(failed?.headers?.get('x-harness-hint')).toContain("and each llm answer against its request's schemas");
  expect((await journal()).calls.map((call) => call.contractViolations)).toEqual([[violation]]);
});
