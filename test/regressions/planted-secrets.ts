/**
 * The 17 secrets of issue 23 item 6, each planted in one call the way an upstream or an app
 * really sends it. The regression test records each call through a running app and imports it
 * from a HAR file; none may reach the written file.
 */

/** One planted call: what the app sends, what the upstream answers, and the secret inside. */
export interface PlantedSecret {
  name: string;
  /** The value that must not be in the file. */
  secret: string;
  request: { method: string; host: string; path: string; headers?: Record<string, string>; body?: string };
  response: { status: number; headers: Record<string, string>; body?: string };
}

const b64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
/** A JWT as identity providers issue them: header, claims, and a 256-byte RS256 signature (fixed bytes, not a real signature). */
function jwt(claims: object, seed: number): string {
  const signature = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 131 + seed * 17) % 256)).toString('base64url');
  return `${b64url({ alg: 'RS256', typ: 'JWT', kid: `k${seed}` })}.${b64url(claims)}.${signature}`;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const ok = (body: object) => ({ status: 200, headers: JSON_TYPE, body: JSON.stringify(body) });

const ACCESS_IN_FRAGMENT = 'frag-access-7Hq2Lm9Xp4';
const ID_TOKEN = jwt({ iss: 'https://login.example.test', sub: 'user-1', aud: 'web', exp: 1718877600, nonce: 'n-1' }, 1);
const SLACK_SECRET = 'q8Lr2VbN5mWc7KxT1pZs4HdY';
const ASSERTION = jwt({ iss: 'svc@example.test', scope: 'read', aud: 'https://oauth2.example.test/token', exp: 1718877600 }, 2);
const CLIENT_ASSERTION = jwt({ iss: 'client-7', sub: 'client-7', aud: 'https://login.example.test/token', jti: 'j-1' }, 3);
const ACCESS = jwt({ token_type: 'access', user_id: 7, exp: 1718877600 }, 4);
const REFRESH = 'def502003b6f1e9c4d0a7b8e2f5c9d1a6e3b7f0c4a8d2e6b';
const JWT = jwt({ sub: 'ada', role: 'admin' }, 5);
const SIGNATURE = '7d3f0c9a1b2e4f6a8c0d2e4f6a8b0c1d3e5f7a9b1c3d5e7f9a0b2c4d6e8f0a1b';
const APIM_KEY = '5c2f8e1a9b7d4c3e6f0a1b2c3d4e5f6a';
const BEARER = 'opaque-Bearer-Tok3n-Zx81';
const STRIPE_LIVE = 'sk_live_51HfixtureLiveKeyAbCdEf0123';

export const PLANTED: PlantedSecret[] = [
  {
    name: 'access_token in a Location fragment',
    secret: ACCESS_IN_FRAGMENT,
    request: { method: 'GET', host: 'login.example.test', path: '/oauth/authorize?response_type=token&client_id=web' },
    response: { status: 302, headers: { location: `https://app.example.test/callback#access_token=${ACCESS_IN_FRAGMENT}&token_type=bearer&expires_in=3600` } },
  },
  {
    name: 'id_token in a Location fragment',
    secret: ID_TOKEN,
    request: { method: 'GET', host: 'login.example.test', path: '/oauth/authorize?response_type=id_token&client_id=web' },
    response: { status: 302, headers: { location: `https://app.example.test/callback#id_token=${ID_TOKEN}&state=s-1` } },
  },
  {
    name: 'a Slack webhook secret in a URL path (and so in the mock id)',
    secret: SLACK_SECRET,
    request: { method: 'POST', host: 'hooks.slack.com', path: `/services/T0123ABCD/B0456EFGH/${SLACK_SECRET}`, headers: JSON_TYPE, body: JSON.stringify({ text: 'Deploy finished' }) },
    response: { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' },
  },
  {
    name: 'a JWT under assertion',
    secret: ASSERTION,
    request: { method: 'POST', host: 'oauth2.example.test', path: '/token', headers: FORM_TYPE, body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: ASSERTION }).toString() },
    response: ok({ token_type: 'Bearer', expires_in: 3599 }),
  },
  {
    name: 'a JWT under client_assertion',
    secret: CLIENT_ASSERTION,
    request: {
      method: 'POST',
      host: 'login.example.test',
      path: '/token',
      headers: FORM_TYPE,
      body: new URLSearchParams({ grant_type: 'client_credentials', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: CLIENT_ASSERTION }).toString(),
    },
    response: ok({ token_type: 'Bearer', expires_in: 3599 }),
  },
  {
    name: 'pwd in a JSON login body',
    secret: 'Tr0ub4dor&3x',
    request: { method: 'POST', host: 'legacy.example.test', path: '/login', headers: JSON_TYPE, body: JSON.stringify({ user: 'ada', pwd: 'Tr0ub4dor&3x' }) },
    response: ok({ ok: true }),
  },
  {
    name: 'pass in a form login body',
    secret: 'correct-horse-battery',
    request: { method: 'POST', host: 'legacy.example.test', path: '/session', headers: FORM_TYPE, body: 'user=ada&pass=correct-horse-battery' },
    response: ok({ ok: true }),
  },
  {
    name: 'a response token under access',
    secret: ACCESS,
    request: { method: 'POST', host: 'api.example.test', path: '/api/token/', headers: JSON_TYPE, body: JSON.stringify({ username: 'ada' }) },
    response: ok({ access: ACCESS }),
  },
  {
    name: 'a response token under refresh',
    secret: REFRESH,
    request: { method: 'POST', host: 'api.example.test', path: '/api/token/refresh/', headers: JSON_TYPE, body: JSON.stringify({ username: 'ada' }) },
    response: ok({ refresh: REFRESH, expires_in: 86400 }),
  },
  {
    name: 'a response token under jwt',
    secret: JWT,
    request: { method: 'POST', host: 'api.example.test', path: '/auth/local', headers: JSON_TYPE, body: JSON.stringify({ identifier: 'ada' }) },
    response: ok({ jwt: JWT, user: { id: 1, username: 'ada' } }),
  },
  {
    name: 'a card number',
    secret: '4012888888881881',
    request: { method: 'GET', host: 'pay.example.test', path: '/v1/wallet' },
    response: ok({ cards: [{ brand: 'visa', card_number: '4012 8888 8888 1881', last4: '1881', exp: '12/30' }] }),
  },
  {
    name: 'X-Amz-Signature in a presigned URL',
    secret: SIGNATURE,
    request: { method: 'GET', host: 'files.example.test', path: '/reports/7' },
    response: ok({ url: `https://bucket.s3.amazonaws.com/reports/7.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20240620T100000Z&X-Amz-Expires=300&X-Amz-SignedHeaders=host&X-Amz-Signature=${SIGNATURE}` }),
  },
  {
    name: '<AccessToken> in XML',
    secret: 'xml-AccessT0ken-Qw7Er5',
    request: { method: 'POST', host: 'soap.example.test', path: '/auth', headers: { 'content-type': 'text/xml' }, body: '<Login><User>ada</User></Login>' },
    response: { status: 200, headers: { 'content-type': 'application/xml' }, body: '<?xml version="1.0"?><AuthResponse><AccessToken>xml-AccessT0ken-Qw7Er5</AccessToken><ExpiresIn>3600</ExpiresIn></AuthResponse>' },
  },
  {
    name: 'double-encoded JSON',
    secret: 'dbl-enc-T0k3n-8sK2',
    request: { method: 'GET', host: 'queue.example.test', path: '/messages/1' },
    response: ok({ id: 1, payload: JSON.stringify({ token: 'dbl-enc-T0k3n-8sK2', user: 'ada' }) }),
  },
  {
    name: 'an ocp-apim-subscription-key value echoed in a body',
    secret: APIM_KEY,
    request: { method: 'GET', host: 'apim.example.test', path: '/echo', headers: { 'ocp-apim-subscription-key': APIM_KEY } },
    response: ok({ received: { headers: { 'Ocp-Apim-Subscription-Key': APIM_KEY } } }),
  },
  {
    name: 'a Bearer token under an ordinary header name, echoed in a body',
    secret: BEARER,
    request: { method: 'GET', host: 'proxy.example.test', path: '/debug', headers: { 'x-forward-auth': `Bearer ${BEARER}` } },
    response: ok({ debug: `forwarded Bearer ${BEARER}` }),
  },
  {
    name: 'a live Stripe key under an ordinary key',
    secret: STRIPE_LIVE,
    request: { method: 'GET', host: 'config.example.test', path: '/v1/settings' },
    response: ok({ payments: { provider: 'stripe', key: 'pk_live_public', server: STRIPE_LIVE } }),
  },
];

/** The forms a secret could be written in a JSON or YAML file. */
export function writtenForms(secret: string): string[] {
  return [...new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), secret.replace(/\d{4}(?=\d)/g, '$& ')])];
}

/** A HAR file holding the planted calls. */
export function plantedHar(cases: readonly PlantedSecret[]): object {
  const pairs = (headers: Record<string, string> = {}) => Object.entries(headers).map(([name, value]) => ({ name, value }));
  return {
    log: {
      version: '1.2',
      entries: cases.map(({ request, response }) => ({
        startedDateTime: '2024-06-20T10:00:00.000Z',
        request: { method: request.method, url: `https://${request.host}${request.path}`, headers: pairs(request.headers), ...(request.body === undefined ? {} : { postData: { mimeType: request.headers?.['content-type'] ?? '', text: request.body } }) },
        response: { status: response.status, headers: pairs(response.headers), content: { mimeType: response.headers['content-type'] ?? '', text: response.body ?? '' } },
      })),
    },
  };
}
