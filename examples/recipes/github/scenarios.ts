import { defineScenarios } from 'scenario-harness';

const API = 'https://api.github.com';

export const scenarios = defineScenarios({
  default: {
    name: 'GitHub works',
    mocks: [
      // REST: path parameters become {{params.*}}.
      {
        method: 'GET',
        url: `${API}/repos/:owner/:repo`,
        response: { body: { id: 1, name: '{{params.repo}}', full_name: '{{params.owner}}/{{params.repo}}', stargazers_count: 42 } },
      },
      // REST: a JSON body matched partially; the issue number comes from a sequence per test.
      {
        method: 'POST',
        url: `${API}/repos/:owner/:repo/issues`,
        match: { body: { title: { startsWith: 'Crash:' }, labels: ['bug'] } },
        sequence: {
          responses: [
            { status: 201, body: { number: 1, title: '{{body.title}}', labels: [{ name: 'bug' }] } },
            { status: 201, body: { number: 2, title: '{{body.title}}', labels: [{ name: 'bug' }] } },
          ],
        },
        afterResponse: { setState: { 'issues[]': '{{body.title}}' } },
      },
      // GraphQL: matched by operation name and variables, not by the query text.
      {
        method: 'POST',
        url: `${API}/graphql`,
        match: { graphql: { operationName: 'RepoStars', variables: { owner: 'octo' } } },
        response: { body: { data: { repository: { name: '{{body.variables.name}}', stargazerCount: 1000 } } } },
      },
    ],
  },
  rateLimited: {
    name: 'The API rate limit is used up',
    mocks: [
      {
        url: `${API}/*`,
        response: {
          status: 403,
          headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000000' },
          body: { message: 'API rate limit exceeded', documentation_url: 'https://docs.github.com/rest/rate-limit' },
        },
      },
    ],
  },
});
