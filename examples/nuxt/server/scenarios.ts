import { defineScenarios } from 'scenario-harness';

export const scenarios = defineScenarios({
  default: {
    name: 'GitHub answers',
    mocks: [{ method: 'GET', url: 'https://api.github.com/users/:login', response: { body: { name: 'Ada', followers: 10 } } }],
  },
  githubDown: {
    name: 'GitHub is down',
    mocks: [{ url: 'https://api.github.com/*', response: { status: 503, body: { message: 'unavailable' } } }],
  },
});
