import OpenAI from 'openai';
import { ndjson } from '../../../../lib/ndjson';

// Its normal https base URL: with the harness on, the test's mocks answer and nothing leaves the machine.
const openai = new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'sk-test-not-a-key', maxRetries: 0 });
const messages = [{ role: 'user' as const, content: 'Hi' }];
const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];

/** POST { call }: Chat Completions streamed (`chat-stream`) or not (`chat`), the Responses API streamed (`responses-stream`) or not (`responses`). */
export async function POST(request: Request): Promise<Response> {
  const { call } = (await request.json()) as { call: string };
  return ndjson(async (send) => {
    if (call === 'chat-stream') {
      const stream = openai.chat.completions.stream({ model: 'gpt-4o-mini', messages, tools, stream_options: { include_usage: true } });
      stream.on('content.delta', ({ delta }) => send({ delta }));
      return stream.finalChatCompletion();
    }
    if (call === 'chat') return openai.chat.completions.create({ model: 'gpt-4o', messages, tools });
    if (call === 'responses-stream') {
      const stream = openai.responses.stream({ model: 'gpt-5-mini', input: 'Capital of France?' });
      for await (const event of stream) send({ type: event.type, ...('delta' in event && typeof event.delta === 'string' ? { delta: event.delta } : {}) });
      const response = await stream.finalResponse();
      return { outputText: response.output_text, response };
    }
    if (call === 'responses') {
      const response = await openai.responses.create({ model: 'gpt-5-mini', input: 'Capital of France?' });
      return { outputText: response.output_text, response };
    }
    throw new Error(`No call ${call}`);
  });
}
