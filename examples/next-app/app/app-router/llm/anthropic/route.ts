import Anthropic from '@anthropic-ai/sdk';
import { ndjson } from '../../../../lib/ndjson';

const anthropic = new Anthropic({ apiKey: process.env.ANTHROPIC_API_KEY ?? 'sk-ant-test-not-a-key', maxRetries: 0 });
const params = { model: 'claude-sonnet-5-5', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'Weather in Paris?' }] };

/** POST { call }: `messages.stream(...)` to `finalMessage()` (`stream`), or `messages.create` (`create`). */
export async function POST(request: Request): Promise<Response> {
  const { call } = (await request.json()) as { call: string };
  return ndjson(async (send) => {
    if (call === 'stream') {
      const stream = anthropic.messages.stream(params);
      stream.on('text', (text) => send({ text }));
      stream.on('inputJson', (partial) => send({ inputJson: partial }));
      return stream.finalMessage();
    }
    if (call === 'create') return anthropic.messages.create(params);
    throw new Error(`No call ${call}`);
  });
}
