import type { MockResponse } from '../core/types.js';
import { expect, test } from 'vitest';
import { isHarnessError } from '../core/errors.js';
import type { RecordedExchange } from './recorded-exchange.js';
import { scenarioFromTraffic, type ScenarioFromTrafficOptions } from './scenario-from-traffic.js';

const AT = '2024-06-20T10:00:00.000Z';
const STRIPE_KEY = 'rk_test_51Mx+Secret/Key==';
const TOKEN = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';

function call(request: Partial<RecordedExchange['request']>, response: Partial<RecordedExchange['response']> = {}): RecordedExchange {
  return {
    request: { method: 'POST', url: 'https://api.test/v1/login', headers: {}, ...request },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}', ...response },
  };
}

/** The conversion's error (the test fails if it succeeds). */
async function refusal(exchanges: RecordedExchange[], options: ScenarioFromTrafficOptions = {}) {
  try {
    await scenarioFromTraffic(exchanges, { recordedAt: AT, ...options });
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    return error;
  }
  return expect.unreachable('scenarioFromTraffic wrote a leak');
}

test('auth headers and cookies are not recorded, and listed as redactions', async () => {
  const recorded = await scenarioFromTraffic([call({ headers: { authorization: `Bearer ${TOKEN}`, cookie: 'sid=s3ss10n-v4lue; theme=dark', 'x-api-key': 'key_987654321' } })], { recordedAt: AT });
  const text = await recorded.toFileText();
  for (const secret of [TOKEN, 's3ss10n-v4lue', 'key_987654321']) expect(text).not.toContain(secret);
  expect(recorded.redactions.map(({ field, action }) => `${field} ${action}`)).toEqual([
    'request.headers.authorization not recorded',
    'request.headers.cookie not recorded',
    'request.headers.x-api-key not recorded',
  ]);
  expect(recorded.scenarios.default!.description).toContain('- POST api.test/v1/login: request.headers.authorization not recorded (secret-looking name)');
});

test('secret query names and JSON keys are removed from match, never matched against a placeholder', async () => {
  const body = JSON.stringify({ username: 'ada', password: 'correct-horse', client_secret: 'cs_live_abcdef', card: { number: '4242', cvc: '123' } });
  const recorded = await scenarioFromTraffic([call({ url: 'https://api.test/v1/login?api_key=ak_1234567&access_token=at_1234567&locale=en', headers: { 'content-type': 'application/json' }, body })], { recordedAt: AT });
  const mock = recorded.scenarios.default!.mocks[0]!;
  expect(mock.match).toEqual({ query: { locale: 'en' }, body: { card: { number: '4242' }, username: 'ada' } });
  expect(JSON.stringify(mock)).not.toContain('[redacted]');
  expect(recorded.redactions.filter(({ action }) => action === 'removed from match').map(({ field }) => field)).toEqual([
    'request.query.api_key',
    'request.query.access_token',
    'request.body.card.cvc',
    'request.body.client_secret',
    'request.body.password',
  ]);
});

test('secret-looking keys in a response are replaced by [redacted]; counts and cursors that only look like tokens are kept', async () => {
  const body = JSON.stringify({ access_token: 'gho_abcdefghijkl', refresh_token: 'r_abcdefghijkl', token_type: 'bearer', usage: { total_tokens: 42 }, next_page_token: 'CAE', user: { password: 'p4ssw0rd!', name: 'Ada' } });
  const recorded = await scenarioFromTraffic([call({}, { body })], { recordedAt: AT });
  expect((recorded.scenarios.default!.mocks[0]!.response as MockResponse).body).toEqual({ access_token: '[redacted]', refresh_token: '[redacted]', token_type: 'bearer', usage: { total_tokens: 42 }, next_page_token: 'CAE', user: { password: '[redacted]', name: 'Ada' } });
});

test('response headers that carry credentials are replaced; a secret query parameter in a redirect URL is redacted in place', async () => {
  const recorded = await scenarioFromTraffic([call({}, { status: 302, headers: { location: 'https://app.test/callback?code=oauth_code_123&state=xyz', 'x-csrf-token': 'csrf_abcdefgh' }, body: '' })], { recordedAt: AT });
  expect(recorded.scenarios.default!.mocks[0]!.response).toEqual({ status: 302, headers: { location: 'https://app.test/callback?code=[redacted]&state=xyz', 'x-csrf-token': '[redacted]' } });
});

test('an OAuth answer in form encoding has its token redacted', async () => {
  const recorded = await scenarioFromTraffic([call({}, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'access_token=gho_16C7e42F292c6912E7710c838347Ae178B4a&scope=repo&token_type=bearer' })], { recordedAt: AT });
  expect((recorded.scenarios.default!.mocks[0]!.response as MockResponse).body).toBe('access_token=[redacted]&scope=repo&token_type=bearer');
});

test('a redacted value is replaced wherever else it appears, and a match holding it loses that criterion', async () => {
  const recorded = await scenarioFromTraffic(
    [
      call({ headers: { authorization: `Bearer ${TOKEN}` } }, { body: JSON.stringify({ echo: `you sent ${TOKEN}` }) }),
      call({ url: 'https://api.test/v1/check', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: TOKEN, kind: 'test' }) }),
    ],
    { recordedAt: AT },
  );
  const [login, check] = recorded.scenarios.default!.mocks;
  expect((login!.response as MockResponse).body).toEqual({ echo: 'you sent [redacted]' });
  expect(check!.match).toEqual({ body: { kind: 'test' } });
  expect(recorded.redactions).toContainEqual({ mock: 'POST api.test/v1/check', field: 'request.body.key', action: 'removed from match', reason: 'the value of request.headers.authorization' });
});

test('secrets.env values are replaced anywhere: body, headers, match, and the URL path (as a wildcard)', async () => {
  const recorded = await scenarioFromTraffic(
    [
      call({ url: `https://api.telegram.test/bot${STRIPE_KEY.slice(0, 12)}/sendMessage?q=${encodeURIComponent('hello')}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'hi', note: STRIPE_KEY }) }, { headers: { 'content-type': 'text/plain', 'x-echo': STRIPE_KEY }, body: `key=${STRIPE_KEY}` }),
    ],
    { recordedAt: AT, secrets: { env: ['STRIPE_KEY', 'BOT_TOKEN', 'UNSET'] }, env: { STRIPE_KEY, BOT_TOKEN: STRIPE_KEY.slice(0, 12) } },
  );
  const mock = recorded.scenarios.default!.mocks[0]!;
  expect(mock.url).toBe('https://api.telegram.test/bot*/sendMessage');
  expect(mock.match).toEqual({ query: { q: 'hello' }, body: { text: 'hi' } });
  expect(mock.response).toEqual({ status: 200, headers: { 'content-type': 'text/plain', 'x-echo': '[redacted]' }, body: 'key=[redacted]' });
  expect(recorded.notes).toContain('secrets.env: UNSET is not set; nothing to replace for it');
  expect(await recorded.toFileText('yaml')).not.toContain(STRIPE_KEY.slice(0, 12));
});

test('a secret cut out of a path a URL pattern would misread becomes a wildcard in the regex', async () => {
  const recorded = await scenarioFromTraffic([call({ url: `https://api.test/v1/bots/${TOKEN}:send` })], { recordedAt: AT, secrets: { env: ['TOKEN'] }, env: { TOKEN } });
  expect(recorded.scenarios.default!.mocks[0]!.url).toEqual({ regex: { source: '^https://api\\.test/v1/bots/[^/?#:]*:send/?(?:[?#].*)?$' } });
});

test('the leak check refuses an env secret inside a binary response body, naming the field and the variable, never the value', async () => {
  const pdf = new TextEncoder().encode(`%PDF-1.4\n/Author (${STRIPE_KEY})\n\u0000\u0001`);
  const error = await refusal([call({}, { headers: { 'content-type': 'application/pdf' }, body: pdf })], { secrets: { env: ['STRIPE_KEY'] }, env: { STRIPE_KEY } });
  expect(error.code).toBe('SECRET_LEAK');
  expect(error.message).toContain('Failed to write the recorded scenario "default": it still holds a secret value, so nothing was written.');
  expect(error.message).toContain('  - default.mocks[0].response.bodyBase64: env STRIPE_KEY (inside the binary body)');
  expect(error.message).not.toContain(STRIPE_KEY);
});

test('the leak check refuses a token that comes back URL-encoded in a redirect URL', async () => {
  const location = `https://app.test/return?next=${encodeURIComponent(`/done?ref=${STRIPE_KEY}`)}`;
  const error = await refusal([call({ headers: { authorization: `Bearer ${STRIPE_KEY}` } }, { status: 303, headers: { location }, body: '' })]);
  expect(error.code).toBe('SECRET_LEAK');
  expect(error.message).toContain('default.mocks[0].response.headers.location: the value of request.headers.authorization (URL-encoded)');
  expect(error.message).not.toContain(STRIPE_KEY);
  expect(error.message).not.toContain(encodeURIComponent(STRIPE_KEY));
});

test('the same redirect with the token as is gets it replaced instead', async () => {
  const recorded = await scenarioFromTraffic([call({ headers: { authorization: `Bearer ${TOKEN}` } }, { status: 303, headers: { location: `https://app.test/return?ref=${TOKEN}` }, body: '' })], { recordedAt: AT });
  expect((recorded.scenarios.default!.mocks[0]!.response as MockResponse).headers).toEqual({ location: 'https://app.test/return?ref=[redacted]' });
});

test('redact adds names; a too-short env secret is refused with a remedy', async () => {
  const recorded = await scenarioFromTraffic([call({ headers: { 'content-type': 'application/json', 'x-shop-pin': '99887766' }, body: '{"pin":"1234","order":7}' }, { body: '{"pin":"1234","order":7}' })], { recordedAt: AT, redact: { keys: ['pin'], headers: ['x-shop-pin'] } });
  const mock = recorded.scenarios.default!.mocks[0]!;
  expect(mock.match).toEqual({ body: { order: 7 } });
  expect((mock.response as MockResponse).body).toEqual({ pin: '[redacted]', order: 7 });
  expect(recorded.redactions.map(({ field }) => field)).toEqual(['request.headers.x-shop-pin', 'request.body.pin', 'response.body.pin']);
  const error = await refusal([call({})], { secrets: { env: ['PIN'] }, env: { PIN: 'abc' } });
  expect(error.message).toBe('Failed to record: the environment variable PIN (in secrets.env) holds only 3 characters, too short to find and replace safely. Give a secret of at least 4 characters, or leave PIN out.');
});

test('toFileText checks the final text once more', async () => {
  const recorded = await scenarioFromTraffic([call({}, { body: '{"a":1}' })], { recordedAt: AT, secrets: { values: ['"a": 1'] } });
  await expect(recorded.toFileText('json')).rejects.toThrow(/still holds a secret value[\s\S]*\n {2}- \(the serialised file\): secrets\.values\[0\]\n/);
});

test('a secret found by its value is replaced under any name and listed with what it looked like; a card number sent as a number too', async () => {
  const recorded = await scenarioFromTraffic([call({}, { body: JSON.stringify({ config: { server: 'sk_live_51HxAbCdEf0123456789' }, pan: 4012888888881881, last4: '1881' }) })], { recordedAt: AT });
  expect((recorded.scenarios.default!.mocks[0]!.response as MockResponse).body).toEqual({ config: { server: '[redacted]' }, pan: '[redacted]', last4: '1881' });
  expect(recorded.redactions.map(({ field, reason }) => `${field}: ${reason}`)).toEqual(['response.body.config.server: a Stripe secret key, found by its value', 'response.body.pan: a card number, found by its value']);
});

test('secret names in a URL fragment, in XML elements and in JSON inside a string are redacted in place', async () => {
  const recorded = await scenarioFromTraffic(
    [
      call({}, { status: 302, headers: { location: 'https://app.test/cb#access_token=at-123456&state=s1' }, body: '' }),
      call({ url: 'https://api.test/soap' }, { headers: { 'content-type': 'text/xml' }, body: '<r><ns:Password a="1">pw-123456</ns:Password><Name>Ada</Name><Session token="tk-123456"/></r>' }),
      call({ url: 'https://api.test/queue' }, { body: JSON.stringify({ payload: JSON.stringify({ token: 'tk-abcdef', user: 'ada' }) }) }),
    ],
    { recordedAt: AT },
  );
  const [redirect, soap, queue] = recorded.scenarios.default!.mocks.map((mock) => mock.response as MockResponse);
  expect(redirect!.headers).toEqual({ location: 'https://app.test/cb#access_token=[redacted]&state=s1' });
  expect(soap!.body).toBe('<r><ns:Password a="1">[redacted]</ns:Password><Name>Ada</Name><Session token="[redacted]"/></r>');
  expect(queue!.body).toEqual({ payload: '{"token":"[redacted]","user":"ada"}' });
});

test('the leak check refuses a secret found by its value where it cannot be rewritten: a JWT as a key, a token inside a binary body', async () => {
  const jwt = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from('{"sub":"1"}').toString('base64url')}.c2lnbmF0dXJl`;
  const asKey = await refusal([call({}, { body: JSON.stringify({ [jwt]: true }) })]);
  // The path stops at the object: a key that is a secret is not printed either.
  expect(asKey.message).toContain('  - default.mocks[0].response.body (one of its keys): a JWT, found by its value');
  expect(asKey.message).not.toContain(jwt);
  const pdf = new TextEncoder().encode('%PDF-1.4\n/Author (ghp_16C7e42F292c6912E7710c838347Ae178B4a)\n\u0000\u0001');
  const binary = await refusal([call({}, { headers: { 'content-type': 'application/pdf' }, body: pdf })]);
  expect(binary.message).toContain('  - default.mocks[0].response.bodyBase64: a GitHub token, found by its value (inside the binary body)');
});

test('a whole body encoded twice (a JSON string holding JSON) is redacted inside, on both sides', async () => {
  const twice = JSON.stringify(JSON.stringify({ token: 'tk-abcdef', user: 'ada' }));
  const recorded = await scenarioFromTraffic([call({ headers: { 'content-type': 'application/json' }, body: twice }, { body: twice })], { recordedAt: AT });
  const mock = recorded.scenarios.default!.mocks[0]!;
  expect(mock.match).toBeUndefined();
  expect((mock.response as MockResponse).body).toBe(JSON.stringify(JSON.stringify({ token: '[redacted]', user: 'ada' })));
});

test('a secret element of an XML request body (not matched, not written) is cut out where the answer echoes it', async () => {
  const recorded = await scenarioFromTraffic([call({ url: 'https://api.test/soap', headers: { 'content-type': 'text/xml' }, body: '<Login><User>ada</User><wsse:Password>s0ap-Pa55word</wsse:Password></Login>' }, { headers: { 'content-type': 'text/plain' }, body: 'Welcome ada (s0ap-Pa55word)' })], { recordedAt: AT });
  expect((recorded.scenarios.default!.mocks[0]!.response as MockResponse).body).toBe('Welcome ada ([redacted])');
});
