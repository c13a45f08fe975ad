/**
 * Compile-time checks of `response.llm`, run by `npm run typecheck` (tsc over test/).
 * Never executed: each `// @ts-expect-error` line must fail to compile, every other line must compile.
 */
import { defineScenarios, type LlmResponse, type Mock } from 'scenario-harness';

const answer: LlmResponse = {
  api: 'anthropic.messages',
  text: 'Hi {{body.metadata.user_id}}',
  toolCalls: [{ name: 'lookup', arguments: { id: 1 } }, { id: 'toolu_1', name: 'lookup', arguments: '{"id":2}' }],
  reasoning: 'short',
  usage: { inputTokens: 1, outputTokens: 2 },
  finish: 'tool_calls',
  chunking: { chars: 3 },
};

export const scenarios = defineScenarios({
  default: { name: 'Default', mocks: [{ method: 'POST', url: 'https://api.anthropic.com/v1/messages', response: { llm: answer } }] },
  chat: { name: 'Chat', mocks: [{ url: 'https://api.openai.com/v1/chat/completions', response: { status: 200, llm: { api: 'openai.chat', text: 'Hi', chunking: 'token' } } }] },
});

export const wrong: Mock[] = [
  // @ts-expect-error -- 'openai.completions' is not an llm api
  { url: '/x', response: { llm: { api: 'openai.completions', text: 'x' } } },
  // @ts-expect-error -- finish takes the neutral words ('stop', 'length', 'tool_calls', 'content_filter'), not a provider's
  { url: '/x', response: { llm: { api: 'gemini', text: 'x', finish: 'end_turn' } } },
  // @ts-expect-error -- a tool call needs a name
  { url: '/x', response: { llm: { api: 'gemini', toolCalls: [{ arguments: {} }] } } },
];
