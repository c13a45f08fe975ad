import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText, tool, type LanguageModel } from 'ai';
import { z } from 'zod';
import { ndjson } from '../../../../lib/ndjson';

const openai = createOpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'sk-test-not-a-key' });
const anthropic = createAnthropic({ apiKey: process.env.ANTHROPIC_API_KEY ?? 'sk-ant-test-not-a-key' });
const models: Record<string, LanguageModel> = { responses: openai('gpt-5-mini'), chat: openai.chat('gpt-4o-mini'), anthropic: anthropic('claude-sonnet-5-5') };
const tools = { weather: tool({ description: 'The weather in a city', inputSchema: z.object({ city: z.string() }) }) };

/**
 * POST { provider, call, tools? }: the AI SDK over `@ai-sdk/openai` (`responses`, `chat`) or
 * `@ai-sdk/anthropic` (`anthropic`). `text-stream` answers with `toTextStreamResponse()`, as a
 * chat route does; `stream` hands on `fullStream`'s parts; `generate` is `generateText`.
 */
export async function POST(request: Request): Promise<Response> {
  const body = (await request.json()) as { provider: string; call: string; tools?: boolean };
  const options = { model: models[body.provider]!, prompt: body.tools ? 'Weather in Nice?' : 'Paris', maxRetries: 0, ...(body.tools ? { tools } : {}) };
  if (body.call === 'text-stream') return streamText(options).toTextStreamResponse();
  return ndjson(async (send) => {
    if (body.call === 'stream') {
      const result = streamText({ ...options, onError: () => {} });
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') send({ delta: part.text });
        if (part.type === 'error') throw part.error;
      }
      return { text: await result.text, toolCalls: (await result.toolCalls).map((call) => ({ id: call.toolCallId, name: call.toolName, input: call.input })), finishReason: await result.finishReason, usage: await result.usage };
    }
    if (body.call === 'generate') {
      const result = await generateText(options);
      return { text: result.text, toolCalls: result.toolCalls.map((call) => ({ id: call.toolCallId, name: call.toolName, input: call.input })), finishReason: result.finishReason, usage: result.usage };
    }
    throw new Error(`No call ${body.call}`);
  });
}
