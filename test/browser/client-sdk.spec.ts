import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { test, expect } from './fixtures.js';

// A real client-side SDK in the page (docs/recipes.md, "An SDK in the browser"): the OpenAI SDK,
// bundled for the browser as an app's build would, calls https://api.openai.com from chromium.
// harnessBrowser routes it through the shop's answer endpoint, so the test's own mocks answer it;
// under the shop's unhandled: 'error' an unmocked call is aborted, so nothing reaches the network.

test.use({ harnessBrowser: true });

const COMPLETIONS = 'https://api.openai.com/v1/chat/completions';
let sdk: string;

test.beforeAll(async () => {
  const built = await build({
    stdin: { contents: "import OpenAI from 'openai'; globalThis.OpenAI = OpenAI;", resolveDir: fileURLToPath(new URL('../..', import.meta.url)) },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  sdk = built.outputFiles[0]!.text;
});

/** One streamed piece of a chat completion, as the API sends it. */
const chunk = (content: string) => JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content }, finish_reason: null }] });

test("the OpenAI SDK in the page gets the test's answer, and the journal shows the browser's call", async ({ page, harness }) => {
  await harness.use({
    method: 'POST',
    url: COMPLETIONS,
    response: { body: { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from this test' }, finish_reason: 'stop' }] } },
  });
  await page.goto('/stores');
  await page.addScriptTag({ content: sdk });
  const answer = await page.evaluate(async () => {
    const { OpenAI } = globalThis as unknown as { OpenAI: new (options: object) => { chat: { completions: { create(body: object): Promise<{ choices: { message: { content: string } }[] }> } } } };
    const client = new OpenAI({ apiKey: 'sk-browser-test', dangerouslyAllowBrowser: true, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
    return completion.choices[0]!.message.content;
  });
  expect(answer).toBe('Hello from this test');
  const [call] = await harness.calls({ method: 'POST', url: COMPLETIONS });
  expect(call).toMatchObject({ side: 'browser', answered: true, layer: 'test', requestBody: { model: 'gpt-4o-mini' } });
  // The SDK's key is a secret: the journal keeps it redacted.
  expect(call!.requestHeaders.authorization).not.toContain('sk-browser-test');
});

test('a streamed completion reaches the SDK in the page as a whole body, every piece in order', async ({ page, harness }) => {
  await harness.use({
    method: 'POST',
    url: COMPLETIONS,
    match: { body: { stream: true } },
    response: { stream: { events: [{ data: chunk('Hel') }, { data: chunk('lo') }, { data: chunk('!') }, { data: '[DONE]' }], intervalMs: 5 } },
  });
  await page.goto('/stores');
  await page.addScriptTag({ content: sdk });
  const text = await page.evaluate(async () => {
    const { OpenAI } = globalThis as unknown as { OpenAI: new (options: object) => { chat: { completions: { create(body: object): Promise<AsyncIterable<{ choices: { delta: { content?: string } }[] }>> } } } };
    const client = new OpenAI({ apiKey: 'sk-browser-test', dangerouslyAllowBrowser: true, maxRetries: 0 });
    let read = '';
    for await (const part of await client.chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] })) read += part.choices[0]?.delta.content ?? '';
    return read;
  });
  expect(text).toBe('Hello!');
});

test("under the app's unhandled: 'error' the SDK's unmocked call fails in the page and never leaves the machine", async ({ page, harness }) => {
  await page.goto('/stores');
  await page.addScriptTag({ content: sdk });
  const failure = await page.evaluate(async () => {
    const { OpenAI } = globalThis as unknown as { OpenAI: new (options: object) => { models: { list(): Promise<unknown> } } };
    const client = new OpenAI({ apiKey: 'sk-browser-test', dangerouslyAllowBrowser: true, maxRetries: 0 });
    return client.models.list().then(
      () => 'answered',
      (error: Error) => error.constructor.name,
    );
  });
  expect(failure).toBe('APIConnectionError');
  expect(await harness.calls({ url: 'https://api.openai.com/*' })).toMatchObject([{ side: 'browser', answered: false, unhandled: 'failed' }]);
});
