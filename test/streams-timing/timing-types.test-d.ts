/**
 * Compile-time checks of `timing`, `hold` and `errorAfter` (tsc over test/), and of the
 * `timing` option. Never executed: each `// @ts-expect-error` line must fail to compile.
 */
import { createHarness, defineScenarios, type Mock, type StreamTiming } from 'scenario-harness';

const timing: StreamTiming = { firstMs: 300, tokensPerSecond: 40, jitter: 0.2, seed: 7 };

export const scenarios = defineScenarios({
  default: {
    name: 'Default',
    mocks: [
      { id: 'story', url: 'https://api.x.test/s', response: { stream: { events: [{ data: 'a' }], timing, hold: { afterChunks: 1 }, failAfter: 3 } } },
      { url: 'https://api.openai.com/v1/chat/completions', response: { llm: { api: 'openai.chat', text: 'Hi', timing: { intervalMs: 20 }, errorAfter: { chunks: 2, type: 'server_error' }, hold: { afterChunks: 0 } } } },
      { url: 'https://api.anthropic.com/v1/messages', response: { llm: { api: 'anthropic.messages', text: 'Hi', failAfter: 1 } } },
    ],
  },
});

export const instant = () => createHarness({ enabled: true, scenarios, timing: 'instant' });

export const wrong: Mock[] = [
  // @ts-expect-error -- hold counts chunks: afterChunks, not after
  { url: '/x', response: { stream: { chunks: ['a'], hold: { after: 1 } } } },
  // @ts-expect-error -- errorAfter needs its chunk count
  { url: '/x', response: { llm: { api: 'gemini', text: 'x', errorAfter: { message: 'no' } } } },
];

// @ts-expect-error -- timing is 'instant' or 'real'
export const fast = () => createHarness({ enabled: true, scenarios, timing: 'fast' });
