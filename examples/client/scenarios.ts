import { defineScenarios } from 'scenario-harness';

const USER = 'https://api.github.com/users/:login';

export const scenarios = defineScenarios({
  default: {
    name: 'GitHub answers',
    mocks: [{ method: 'GET', url: USER, response: { body: { login: '{{params.login}}', followers: 10 } } }],
  },
  githubDown: {
    name: 'GitHub is down',
    description: 'Every GitHub call answers 503',
    mocks: [{ url: 'https://api.github.com/*', response: { status: 503, body: { message: 'Service Unavailable' } } }],
    variants: {
      flaky: {
        mocks: [
          {
            method: 'GET',
            url: USER,
            sequence: { responses: [{ status: 503 }, { body: { login: '{{params.login}}', followers: 10 } }] },
            afterResponse: { setState: { 'github.calls[]': '{{params.login}}' } },
          },
        ],
      },
    },
  },
});
