/**
 * createHarness({ access }) beyond the adapter suite's token cases: the option's validation,
 * `authorize` over real HTTP (node:http), a repeated header node:http would otherwise hide,
 * the recording endpoint, `harness.handle()`, and a disabled harness.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness, isHarnessError, type AccessOptions, type Harness, type Logger } from 'scenario-harness';
import { withHarness } from 'scenario-harness/node';
import { afterEach, expect, test } from 'vitest';
import { rawRequest } from '../conformance/raw-request.js';

const TOKEN = 'b7e2d94c0a1f4e3d8c6b5a4f3e2d1c0b';
const HEADER = 'x-harness-test-id';
const scenarios = {
  default: { name: 'Default', mocks: [] },
  premium: { name: 'Premium', mocks: [] },
};

interface App {
  origin: string;
  harness: Harness<typeof scenarios>;
  logged: string[];
}
const servers: { server: Server; harness: Harness }[] = [];
afterEach(async () => {
  for (const { server, harness } of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await harness.stop();
  }
});

/** A node:http app behind `withHarness`, with `access`; `/echo` answers the app's own request. */
async function startApp(access: AccessOptions): Promise<App> {
  const logged: string[] = [];
  const logger: Logger = { warn: (m) => logged.push(m), error: (m, e) => logged.push(`${m} ${e instanceof Error ? e.message : ''}`) };
  const harness = createHarness({ enabled: true, scenarios, logger, access, announce: false });
  await harness.start();
  const server = createServer(withHarness(harness, (req, res) => void res.end(JSON.stringify({ app: req.url, authorization: req.headers.authorization ?? null }))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ server, harness });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, harness, logged };
}

const switchTo = (origin: string, testId: string, headers: Record<string, string> = {}) =>
  fetch(`${origin}/__scenario__`, { method: 'POST', headers: { [HEADER]: testId, 'content-type': 'application/json', ...headers }, body: JSON.stringify({ scenario: 'premium' }) });

const invalid = (access: unknown) => () => createHarness({ enabled: true, scenarios, access: access as AccessOptions });

test.each([
  ['an empty token', { token: '' }, /"access\.token" cannot be used: it is empty\./],
  ['a token of 15 characters', { token: '0123456789abcde' }, /"access\.token" cannot be used: it has 15 characters, and a token shorter than 16 can be guessed; use a random one of at least 16, e\.g\. the output of "openssl rand -hex 32"\./],
  ['a token with a space', { token: 'correct horse battery staple' }, /characters a bearer token cannot carry/],
  ['a token that is not a string', { token: 1234567890123456 }, /"access\.token" cannot be used: expected a string, instead got number/],
  ['both a token and authorize', { token: TOKEN, authorize: () => true }, /"access" has both a token and authorize; give one\. To accept the token and something else too, check both inside authorize/],
  ['an authorize that is not a function', { authorize: true }, /expected "access\.authorize" to be a function \(request\) => boolean, instead got boolean/],
  ['neither (an unset environment variable)', { token: undefined }, /"access" is set but has neither a token nor authorize, so the control endpoints would be open\. Is the token's environment variable \(HARNESS_TOKEN\) set\?/],
  ['an unknown key', { tokn: TOKEN }, /"access\.tokn" is not an access option \(did you mean "token"\?\); use token or authorize\./],
  ['not an object', 'secret', /expected "access" to be \{ token \} or \{ authorize \}, instead got "secret"/],
])('%s is refused by createHarness, saying why', (_, access, message) => {
  expect(invalid(access)).toThrow(message);
  try {
    invalid(access)();
  } catch (error) {
    expect(isHarnessError(error) && error.code).toBe('INVALID_OPTIONS');
    // The message never shows the token it refused.
    if (typeof (access as { token?: unknown }).token === 'string' && (access as { token: string }).token.length > 3) {
      expect((error as Error).message).not.toContain((access as { token: string }).token);
    }
  }
});

test('a disabled harness ignores access, even an invalid one: an unset token never stops a production app', async () => {
  const harness = createHarness({ enabled: false, scenarios, access: { token: undefined } });
  expect(await harness.handle(new Request('http://app.test/__scenario__'))).toBeNull();
});

test('on node:http, a repeated Authorization header is refused even when its first line is right', async () => {
  const { origin } = await startApp({ token: TOKEN });
  const testId = randomUUID();
  const answer = await rawRequest(`${origin}/__harness__/state`, 'GET', [[HEADER, testId], ['authorization', `Bearer ${TOKEN}`], ['authorization', 'Bearer something-else-entirely']]);
  expect(answer.status).toBe(401);
  expect(JSON.parse(answer.text)).toEqual({ error: expect.stringMatching(/^More than one credential in the Authorization header/) });
  expect(answer.text).not.toContain(TOKEN);
  const once = await rawRequest(`${origin}/__harness__/state`, 'GET', [[HEADER, testId], ['authorization', `Bearer ${TOKEN}`]]);
  expect(once.status).toBe(200);
});

test('the recording endpoint is guarded like the others', async () => {
  const { origin } = await startApp({ token: TOKEN });
  const start = (headers: Record<string, string>) =>
    fetch(`${origin}/__harness__/record`, { method: 'POST', headers: { [HEADER]: 'rec-1', 'content-type': 'application/json', ...headers }, body: '{"mode":"all"}' });
  expect((await start({})).status).toBe(401);
  expect((await fetch(`${origin}/__harness__/record`, { headers: { [HEADER]: 'rec-1' } })).status).toBe(401);
  expect(await (await start({ authorization: `Bearer ${TOKEN}` })).json()).toEqual({ success: true, testId: 'rec-1', mode: 'all' });
});

test('a 401 reads no body, and the connection stays usable for the next request', async () => {
  const { origin } = await startApp({ token: TOKEN });
  const big = JSON.stringify({ scenario: 'premium', padding: 'x'.repeat(200_000) });
  const refused = await fetch(`${origin}/__scenario__`, { method: 'POST', headers: { [HEADER]: 't', 'content-type': 'application/json' }, body: big });
  expect(refused.status).toBe(401);
  expect((await switchTo(origin, 't', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
});

test('authorize decides per request, from the method, URL and headers; the endpoint still reads the body', async () => {
  const seen: { method: string; url: string; role: string | null; body: string }[] = [];
  const { origin, harness } = await startApp({
    async authorize(request) {
      seen.push({ method: request.method, url: request.url, role: request.headers.get('x-role'), body: await request.text() });
      return request.headers.get('x-role') === 'tester';
    },
  });
  const testId = randomUUID();
  const refused = await switchTo(origin, testId, { 'x-role': 'visitor' });
  expect(refused.status).toBe(401);
  expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="scenario-harness"');
  expect(await refused.json()).toEqual({ error: 'Access denied: access.authorize() refused this request.' });
  expect(await harness.getActiveScenario(testId)).toBeUndefined();

  const granted = await switchTo(origin, testId, { 'x-role': 'tester' });
  expect(await granted.json()).toEqual({ success: true, testId, scenarioId: 'premium' });
  expect(seen).toEqual([
    { method: 'POST', url: `${origin}/__scenario__`, role: 'visitor', body: '' },
    { method: 'POST', url: `${origin}/__scenario__`, role: 'tester', body: '' },
  ]);
  // The app's own requests never reach authorize.
  expect(await (await fetch(`${origin}/echo`, { headers: { [HEADER]: testId } })).json()).toEqual({ app: '/echo', authorization: null });
  expect(seen).toHaveLength(2);
});

test('an authorize that throws refuses with 401, never 500, and logs the first failure only', async () => {
  const { origin, logged } = await startApp({
    authorize: () => {
      throw new Error('identity provider unreachable');
    },
  });
  for (const testId of ['a', 'b']) {
    const response = await switchTo(origin, testId);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Access denied: access.authorize() failed on this request (the app's log has the error)." });
  }
  expect(logged).toEqual([
    'access.authorize() threw on POST /__scenario__; the request was refused with 401 (later failures are refused without a log line). identity provider unreachable',
  ]);
});

test('an authorize that resolves to anything but true refuses, and says so once in the log', async () => {
  const { origin, logged } = await startApp({ authorize: (async () => 'yes') as unknown as AccessOptions['authorize'] });
  expect((await switchTo(origin, 'a')).status).toBe(401);
  expect((await switchTo(origin, 'b')).status).toBe(401);
  expect(logged).toEqual(['access.authorize() returned "yes", not true or false; only true grants access, so the request was refused with 401 (logged once).']);
});

test('harness.handle() (Hono, Next.js, any Fetch host) checks the token too, and passes other paths through', async () => {
  const harness = createHarness({ enabled: true, scenarios, access: { token: TOKEN }, announce: false });
  try {
    const get = (path: string, headers: Record<string, string> = {}) => harness.handle(new Request(`http://app.test${path}`, { headers: { [HEADER]: 'h', ...headers } }));
    const refused = await get('/__harness__/state');
    expect(refused?.status).toBe(401);
    expect(await refused?.json()).toEqual({ error: expect.stringMatching(/^Missing Authorization header/) });
    expect((await get('/__harness__/state', { authorization: `bearer ${TOKEN}` }))?.status).toBe(200);
    expect(await get('/checkout')).toBeNull();
  } finally {
    await harness.stop();
  }
});
