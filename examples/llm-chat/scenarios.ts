import { defineScenarios } from 'scenario-harness';

const CHAT = 'https://api.openai.com/v1/chat/completions';
const ANSWER = 'Paris is the capital of France.';

export const scenarios = defineScenarios({
  // Every test starts here: the model answers at a model's pace (skipped under HARNESS_TIMING=instant).
  default: {
    name: 'The model answers',
    mocks: [
      {
        id: 'chat', // the stream's name in waitForStream('chat'), releaseStream('chat')…
        method: 'POST',
        url: CHAT,
        response: { llm: { api: 'openai.chat', text: ANSWER, timing: { firstMs: 300, tokensPerSecond: 20 } } },
      },
    ],
  },
  held: {
    name: 'The answer stops after three words until the test releases it',
    mocks: [{ id: 'chat', method: 'POST', url: CHAT, response: { llm: { api: 'openai.chat', text: ANSWER, hold: { afterChunks: 3 } } } }],
  },
  weather: {
    name: 'The model calls get_weather',
    mocks: [
      {
        id: 'chat',
        method: 'POST',
        url: CHAT,
        response: { llm: { api: 'openai.chat', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } },
      },
    ],
  },
  brokenStream: {
    name: 'The stream fails after three words',
    mocks: [
      {
        id: 'chat',
        method: 'POST',
        url: CHAT,
        response: { llm: { api: 'openai.chat', text: ANSWER, errorAfter: { chunks: 3, message: 'The model is overloaded' } } },
      },
    ],
  },
});
