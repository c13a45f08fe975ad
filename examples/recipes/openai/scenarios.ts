import { defineScenarios } from 'scenario-harness';

const COMPLETIONS = 'https://api.openai.com/v1/chat/completions';

/** One streamed piece of a chat completion, as the API sends it. */
const chunk = (delta: { content?: string }, finishReason: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, delta, finish_reason: finishReason }],
});

export const scenarios = defineScenarios({
  default: {
    name: 'The model answers, streamed',
    mocks: [
      {
        method: 'POST',
        url: COMPLETIONS,
        match: { body: { stream: true } },
        response: {
          stream: {
            // Server-Sent Events: one `data:` line each, JSON unless a string.
            events: [
              { data: chunk({ content: 'You asked: ' }) },
              { data: chunk({ content: '{{body.messages.0.content}}' }) }, // templates work in events
              { data: chunk({}, 'stop') },
              { data: '[DONE]' },
            ],
            intervalMs: 10,
          },
        },
      },
    ],
  },
  rateLimited: {
    name: 'Too many requests',
    mocks: [
      {
        method: 'POST',
        url: COMPLETIONS,
        response: { status: 429, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } } },
      },
    ],
  },
  cutOff: {
    name: 'The stream breaks after two events',
    mocks: [
      {
        method: 'POST',
        url: COMPLETIONS,
        response: { stream: { events: [{ data: chunk({ content: 'Hel' }) }, { data: chunk({ content: 'lo' }) }, { data: '[DONE]' }], failAfter: 2 } },
      },
    ],
  },
});
