import { defineScenarios } from 'scenario-harness';

const TOKEN = 'https://auth.example.com/oauth/token';

export const scenarios = defineScenarios({
  default: {
    name: 'The client gets a token and the API accepts it',
    mocks: [
      {
        method: 'POST',
        url: TOKEN,
        // A form body (grant_type=client_credentials&client_id=shop&...): every field is text.
        match: { body: { grant_type: 'client_credentials', client_id: 'shop' } },
        response: { body: { access_token: 'token-for-{{body.client_id}}', token_type: 'Bearer', expires_in: 3600, scope: '{{body.scope}}' } },
        afterResponse: { setState: { 'tokens.issued': true } },
      },
      {
        method: 'GET',
        url: 'https://api.example.com/orders',
        match: { headers: { authorization: 'Bearer token-for-shop' } },
        response: { body: [{ id: 'o_1', total: 2500 }] },
      },
      {
        method: 'GET',
        url: 'https://api.example.com/orders',
        response: { status: 401, body: { error: 'invalid_token' } },
      },
    ],
  },
  badCredentials: {
    name: 'The token endpoint refuses the client',
    mocks: [
      {
        method: 'POST',
        url: TOKEN,
        response: { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } },
      },
    ],
  },
});
