import { fileURLToPath } from 'node:url';
import express from 'express';
import OpenAI from 'openai';
import { createHarness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { scenarios } from './scenarios.js';

const harness = createHarness({
  enabled: process.env.HARNESS_ENABLED === 'true', // off unless the tests start the app with it
  scenarios,
  unhandled: 'error', // a call no mock answers fails instead of reaching OpenAI
});
await harness.start();

// Under the harness no key is needed: the SDK's calls never leave the process.
const openai = new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'sk-no-key-under-the-harness', maxRetries: 0 });
const tools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  },
];

const app = express();
app.use(express.json());
app.use(harnessMiddleware(harness));

app.get('/', (_req, res) => res.sendFile(fileURLToPath(new URL('./index.html', import.meta.url))));

// Streams the answer to the page as it comes: one line of JSON per piece (text, a tool call, an error).
app.post('/api/chat', async (req, res) => {
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  const send = (line: object) => res.write(`${JSON.stringify(line)}\n`);
  try {
    const stream = openai.chat.completions.stream({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: String(req.body.message) }],
      tools,
    });
    for await (const chunk of stream) {
      const text = chunk.choices[0]?.delta?.content;
      if (text) send({ text });
    }
    for (const call of (await stream.finalChatCompletion()).choices[0]?.message.tool_calls ?? []) {
      if (call.type === 'function') send({ tool: call.function.name, arguments: call.function.arguments });
    }
  } catch (error) {
    send({ error: error instanceof Error ? error.message : String(error) });
  }
  res.end();
});

const port = Number(process.env.PORT ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`Listening on http://127.0.0.1:${port}`));
