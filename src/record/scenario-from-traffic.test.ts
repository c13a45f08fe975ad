import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { compileScenarios } from '../core/engine/compile-scenarios.js';
import type { Mock, MockResponse } from '../core/types.js';
import type { RecordedExchange } from './recorded-exchange.js';
import { scenarioFromTraffic, type ScenarioFromTrafficOptions } from './scenario-from-traffic.js';

const validateFile = new Ajv({ allErrors: true }).compile(JSON.parse(readFileSync(new URL('../../schema.json', import.meta.url), 'utf8')) as object);
const AT = '2024-06-20T10:00:00.000Z';

/** A call with a JSON answer unless told otherwise. */
function call(method: string, url: string, request: Partial<RecordedExchange['request']> = {}, response: Partial<RecordedExchange['response']> = {}): RecordedExchange {
  return {
    request: { method, url, headers: {}, ...request },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}', ...response },
  };
}

/** The mocks of a conversion, after checking the output is a valid scenario file. */
async function mocks(exchanges: RecordedExchange[], options: ScenarioFromTrafficOptions = {}): Promise<Mock[]> {
  const { scenarios } = await scenarioFromTraffic(exchanges, { recordedAt: AT, ...options });
  expect(() => compileScenarios(scenarios)).not.toThrow();
  expect(validateFile(scenarios), JSON.stringify(validateFile.errors)).toBe(true);
  return Object.values(scenarios)[0]!.mocks;
}

test('the URL is origin + path: the query goes to match.query, a default port is dropped, another is kept', async () => {
  const [a, b] = await mocks([call('get', 'https://api.test:443/v1/items?page=2&sort=name'), call('GET', 'http://127.0.0.1:8080/v1/items/')]);
  expect(a).toEqual({ id: 'GET api.test/v1/items', method: 'GET', url: 'https://api.test/v1/items', match: { query: { page: '2', sort: 'name' } }, response: { status: 200, headers: { 'content-type': 'application/json' }, body: { ok: true } } });
  expect(b!.url).toBe('http://127.0.0.1:8080/v1/items/');
  expect(b!.match).toBeUndefined();
});

test('volatile query parameters are dropped by name and by the timestamp heuristic; meaningful ones are kept', async () => {
  const [mock] = await mocks([
    call('GET', 'https://api.test/feed?_=1718877602000&cb=x81&X-Amz-Signature=abc&t=1718877602&ts=2024-06-20T10:00:00Z&nonce=n-1&since=1700000000&id=3f2a9c1e-1b2c-4d5e-8f90-a1b2c3d4e5f6&page=2'),
  ]);
  expect(mock!.match).toEqual({ query: { id: '3f2a9c1e-1b2c-4d5e-8f90-a1b2c3d4e5f6', page: '2', since: '1700000000' } });
});

test('calls that differ only in volatile values are one request key: one mock, their answers in order', async () => {
  const [mock, ...rest] = await mocks([
    call('GET', 'https://api.test/orders/1?_=1718877602000', {}, { body: '{"status":"pending"}' }),
    call('GET', 'https://api.test/orders/1?_=1718877603000', {}, { body: '{"status":"paid"}' }),
  ]);
  expect(rest).toEqual([]);
  expect(mock!.sequence!.responses.map((r) => (r as MockResponse).body)).toEqual([{ status: 'pending' }, { status: 'paid' }]);
});

test('match.body is a partial match of the JSON body without volatile and secret keys', async () => {
  const body = JSON.stringify({ email: 'a@b.test', password: 'hunter2-long', profile: { name: 'Ada', api_key: 'k_123456789' }, timestamp: 1718877602, nonce: 'x', tags: ['a', 'b'] });
  const [mock] = await mocks([call('POST', 'https://api.test/signup', { headers: { 'content-type': 'application/json' }, body })]);
  expect(mock!.match).toEqual({ body: { email: 'a@b.test', profile: { name: 'Ada' }, tags: ['a', 'b'] } });
});

test('a form body is matched as nested fields, the way Stripe sends it', async () => {
  const [mock] = await mocks([call('POST', 'https://api.stripe.com/v1/charges', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new TextEncoder().encode('amount=2000&currency=usd&metadata[order_id]=42&expand[]=customer') })]);
  expect(mock!.match).toEqual({ body: { amount: '2000', currency: 'usd', expand: ['customer'], metadata: { order_id: '42' } } });
});

test('a text body is not matched; an object that would read as a string matcher is left out of the match', async () => {
  const [xml, json] = await mocks([
    call('POST', 'https://api.test/soap', { headers: { 'content-type': 'text/xml' }, body: '<Envelope/>' }),
    call('POST', 'https://api.test/search', { headers: { 'content-type': 'application/json' }, body: '{"filter":{"contains":"x"},"q":"shoes"}' }),
  ]);
  expect(xml!.match).toBeUndefined();
  expect(json!.match).toEqual({ body: { q: 'shoes' } });
});

test('request headers are not matched by default; matchHeaders adds the named ones, never a secret one', async () => {
  const headers = { accept: 'application/json', 'x-tenant': 'acme', authorization: 'Bearer tok_1234567890' };
  const [plain] = await mocks([call('GET', 'https://api.test/a', { headers })]);
  expect(plain!.match).toBeUndefined();
  const [withHeaders] = await mocks([call('GET', 'https://api.test/a', { headers })], { matchHeaders: ['X-Tenant', 'authorization'] });
  expect(withHeaders!.match).toEqual({ headers: { 'x-tenant': 'acme' } });
});

test('GraphQL is matched on the operation name and variables, so two operations on one URL are two mocks', async () => {
  const gql = (operationName: string, variables: object, data: object) =>
    call('POST', 'https://api.github.com/graphql', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `query ${operationName} { x }`, operationName, variables }) }, { body: JSON.stringify({ data }) });
  const [viewer, issue] = await mocks([gql('Viewer', {}, { viewer: 'ada' }), gql('Issue', { number: 7, clientMutationId: 'ts', nonce: 'n1' }, { issue: 7 })]);
  expect(viewer).toMatchObject({ id: 'POST api.github.com/graphql Viewer', match: { graphql: { operationName: 'Viewer' } } });
  expect(issue).toMatchObject({ id: 'POST api.github.com/graphql Issue', match: { graphql: { operationName: 'Issue', variables: { number: 7, clientMutationId: 'ts' } } } });
  expect(issue!.match).not.toHaveProperty('body');
});

test('a GET GraphQL query is matched on the operation, not on its query parameters', async () => {
  const url = `https://api.test/graphql?query=${encodeURIComponent('query Me { me }')}&variables=${encodeURIComponent('{"a":1}')}&locale=en`;
  const [mock] = await mocks([call('GET', url)]);
  expect(mock!.match).toEqual({ query: { locale: 'en' }, graphql: { operationName: 'Me', variables: { a: 1 } } });
});

test('repeated calls become a sequence in order; identical answers at the end fold into the last step and say so', async () => {
  const poll = (status: string) => call('GET', 'https://api.test/jobs/1', {}, { body: JSON.stringify({ status }) });
  const recorded = await scenarioFromTraffic([poll('queued'), poll('queued'), poll('running'), poll('done'), poll('done'), poll('done')], { recordedAt: AT });
  const [mock] = recorded.scenarios.default!.mocks;
  expect(mock!.sequence).toEqual({ responses: ['queued', 'queued', 'running', 'done'].map((status) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: { status } })), repeat: 'last' });
  expect(recorded.scenarios.default!.description).toContain('GET api.test/jobs/1: 6 calls → 4 responses: the last 3 were identical, kept once and repeated (repeat: "last")');
});

test('identical answers only: one response, not a sequence', async () => {
  const recorded = await scenarioFromTraffic([call('GET', 'https://api.test/me'), call('GET', 'https://api.test/me')], { recordedAt: AT });
  const [mock] = recorded.scenarios.default!.mocks;
  expect(mock).not.toHaveProperty('sequence');
  expect((mock!.response as MockResponse).body).toEqual({ ok: true });
  expect(recorded.scenarios.default!.description).toContain('GET api.test/me: 2 calls → 1 response: the last 2 were identical, kept once');
});

test('mocks keep first-seen order, and the same calls give the same text, byte for byte', async () => {
  const traffic = [call('GET', 'https://b.test/2'), call('GET', 'https://a.test/1'), call('GET', 'https://b.test/2'), call('POST', 'https://a.test/1')];
  const first = await scenarioFromTraffic(traffic, { recordedAt: AT });
  expect(first.scenarios.default!.mocks.map((mock) => mock.id)).toEqual(['GET b.test/2', 'GET a.test/1', 'POST a.test/1']);
  const again = await scenarioFromTraffic(traffic, { recordedAt: AT });
  expect(await again.toFileText('json')).toBe(await first.toFileText('json'));
  expect(await again.toFileText('yaml')).toBe(await first.toFileText('yaml'));
  expect(await first.toFileText('json')).not.toMatch(/\d{4}-\d{2}-\d{2}T(?!10:00:00\.000Z)/);
});

test('the one timestamp is recordedAt, in the description; the scenario ID and name are options', async () => {
  const { scenarios } = await scenarioFromTraffic([call('GET', 'https://api.test/x')], { scenarioId: 'checkout', name: 'Checkout, recorded', recordedAt: new Date(AT) });
  expect(Object.keys(scenarios)).toEqual(['checkout']);
  expect(scenarios.checkout).toMatchObject({ name: 'Checkout, recorded', description: `Recorded by scenario-harness at ${AT} from 1 call.` });
});

test('two mocks with the same method and URL but different matches are told apart by #2', async () => {
  const body = (amount: number) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount }) });
  const [one, two] = await mocks([call('POST', 'https://api.test/pay', body(1)), call('POST', 'https://api.test/pay', body(2))]);
  expect([one!.id, two!.id]).toEqual(['POST api.test/pay', 'POST api.test/pay #2']);
});

test('calls that cannot be replayed are skipped with a note, not a crash', async () => {
  const recorded = await scenarioFromTraffic(
    [call('PROPFIND', 'https://dav.test/a'), call('GET', 'ws://socket.test/live'), call('GET', 'not a url'), call('GET', 'https://api.test/upgrade', {}, { status: 101 }), call('GET', 'https://api.test/ok')],
    { recordedAt: AT },
  );
  expect(recorded.calls).toBe(1);
  expect(recorded.notes).toEqual([
    'call 0 (PROPFIND https://dav.test/a): skipped, scenario files have no PROPFIND mocks (methods: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS)',
    'call 1 (GET ws://socket.test/live): skipped, only http and https calls are recorded',
    'call 2: skipped, "not a url" is not an absolute URL',
    'call 3 (GET https://api.test/upgrade): skipped, status 101 cannot be replayed (200–599)',
  ]);
});

test('a path a URL pattern would misread becomes an anchored regex', async () => {
  const [mock] = await mocks([call('POST', 'https://api.test/v1/operations/op-1:cancel')]);
  expect(mock!.url).toEqual({ regex: { source: '^https://api\\.test/v1/operations/op-1:cancel/?(?:[?#].*)?$' } });
});
