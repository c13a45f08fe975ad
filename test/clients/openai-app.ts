/**
 * The app's OpenAI routes. The client is built here, at import time, before any harness starts
 * (how apps build their SDK clients): openai v6 keeps the `fetch` it sees at construction, so
 * its calls reach the harness through undici's global dispatcher, not the fetch patch.
 */
import type { Express } from 'express';
import OpenAI from 'openai';
import type { Gates } from './gates.js';

// No retries: an unanswered call must fail once, at once (the SDK retries connection errors with back-off).
export const openai = new OpenAI({ apiKey: 'sk-test-not-a-real-key', maxRetries: 0 });

const MODEL = 'gpt-4o-mini';

async function ask(question: string, system?: string): Promise<{ answer: string | null; model: string }> {
  const messages: OpenAI.ChatCompletionMessageParam[] = system === undefined ? [] : [{ role: 'system', content: system }];
  const completion = await openai.chat.completions.create({ model: MODEL, messages: [...messages, { role: 'user', content: question }] });
  return { answer: completion.choices[0]?.message.content ?? null, model: completion.model };
}

export function openaiRoutes(app: Express, gates: Gates): void {
  app.get('/assistant/greet-twice/:gate', async (req, res) => {
    const first = await ask('Hello');
    await gates.pass(req.params.gate);
    const second = await ask('Hello');
    res.json({ first: first.answer, second: second.answer });
  });
  app.post('/assistant/chat', async (req, res) => void res.json(await ask((req.body as { message: string }).message)));
  app.post('/support/ask', async (req, res) => void res.json(await ask((req.body as { question: string }).question, 'You are the shop support bot.')));
  app.post('/assistant/stream', async (req, res) => {
    // Streamed completion: the SDK parses Server-Sent Events into chunks; a body that breaks part way throws.
    const stream = await openai.chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: (req.body as { message: string }).message }] });
    const deltas: string[] = [];
    try {
      for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta.content ?? '');
      res.json({ deltas, complete: true });
    } catch (error) {
      res.json({ deltas, complete: false, error: (error as Error).message });
    }
  });
  app.post('/search/embed', async (req, res) => {
    const embedding = await openai.embeddings.create({ model: 'text-embedding-3-small', input: (req.body as { text: string }).text });
    res.json({ dimensions: embedding.data[0]?.embedding.length });
  });
}
