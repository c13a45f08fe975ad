import { defineScenarios } from 'scenario-harness';

export const scenarios = defineScenarios({
  // `default` answers every test that selected no scenario, and backs every other scenario.
  default: {
    name: 'GitHub answers',
    mocks: [
      {
        method: 'GET',
        url: 'https://api.github.com/users/:login',
        response: { body: { login: '{{params.login}}', followers: 10 } },
      },
    ],
  },
  githubDown: {
    name: 'GitHub is down',
    mocks: [
      {
        method: 'GET',
        url: 'https://api.github.com/users/:login',
        response: { status: 503, body: { message: 'unavailable' } },
      },
    ],
  },
});
