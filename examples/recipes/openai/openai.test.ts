import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { scenarios } from './scenarios.js';

const harness = createHarness({ enabled: true, scenarios, unhandled: 'error' });
const openai = new OpenAI({ apiKey: 'sk-not-a-real-key', maxRetries: 0 });

beforeAll(() => harness.start());
afterAll(() => harness.stop());

/** The app's streaming call, run as test `testId`; the text it has read so far, kept on failure too. */
async function ask(testId: string, question: string, received: string[] = []): Promise<string> {
  return harness.run(testId, async () => {
    const stream = await openai.chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: question }] });
    for await (const part of stream) received.push(part.choices[0]?.delta.content ?? '');
    return received.join('');
  });
}

test('a streamed answer arrives piece by piece', async () => {
  expect(await ask(randomUUID(), 'What is 2 + 2?')).toBe('You asked: What is 2 + 2?');
});

test('a rate limit is the SDK\'s RateLimitError', async () => {
  const testId = randomUUID();
  await harness.switchScenario(testId, 'rateLimited');
  await expect(ask(testId, 'Hi')).rejects.toBeInstanceOf(OpenAI.RateLimitError);
});

test('a stream cut off part way fails after what was already received', async () => {
  const testId = randomUUID();
  await harness.switchScenario(testId, 'cutOff');
  const received: string[] = [];
  await expect(ask(testId, 'Hi', received)).rejects.toThrow();
  expect(received.join('')).toBe('Hello');
});
