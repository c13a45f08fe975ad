import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isHarnessError, loadScenarios } from 'scenario-harness';
import { expect, test } from 'vitest';
import { harExchanges } from '../../src/import/har-exchanges.js';
import { importHar } from '../../src/import/import-har.js';
import { json, startHarness } from '../engine/with-harness.js';

const HAR = fileURLToPath(new URL('./fixtures/checkout.har', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'har-'));

test('a HAR file becomes one scenario of its API calls: assets and other hosts skipped, secrets redacted, polls as a sequence', async () => {
  const { recorded, skipped } = await importHar(HAR, { hosts: ['*.stripe.com', 'api.github.com'], scenarioId: 'checkout' });
  expect(skipped).toEqual({ assets: 4, otherHosts: 1, unreadable: [] });
  const definition = recorded.scenarios.checkout!;
  expect(definition.mocks.map((mock) => mock.id)).toEqual(['POST api.stripe.com/v1/payment_intents', 'GET api.stripe.com/v1/payment_intents/pi_3PfixtureIntent', 'GET files.stripe.com/v1/files/file_1Pfixture/contents', 'POST api.github.com/graphql Issue']);
  expect(definition.description).toMatch(/^Recorded by scenario-harness at 2024-06-20T10:00:00\.000Z from 6 calls\./);
  const text = await recorded.toFileText('yaml');
  for (const secret of ['sk_test_51HarFixtureKey0000', 'ghp_HarFixtureToken000000', 'pi_3PfixtureIntent_secret_Zx9Yw8', 'abcdef123456', 'req_AbC123', '9c1e6d3a-1b2c']) expect(text).not.toContain(secret);
  // Importing the same HAR again gives the same text: the time written is the HAR's own.
  expect(await (await importHar(HAR, { hosts: ['*.stripe.com', 'api.github.com'], scenarioId: 'checkout' })).recorded.toFileText('yaml')).toBe(text);

  const file = join(dir, 'checkout.yaml');
  writeFileSync(file, text);
  const { asTest } = await startHarness(await loadScenarios(file));
  await asTest('checkout', async () => {
    const intent = await json('https://api.stripe.com/v1/payment_intents', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'amount=2000&currency=usd&metadata[order_id]=ord_42&payment_method_types[]=card' });
    expect(intent).toEqual({ status: 200, body: { id: 'pi_3PfixtureIntent', object: 'payment_intent', amount: 2000, currency: 'usd', status: 'requires_confirmation', client_secret: '[redacted]' } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(((await json(`https://api.stripe.com/v1/payment_intents/pi_3PfixtureIntent?expand[]=latest_charge&_=${i}`)).body as { status: string }).status);
    expect(statuses).toEqual(['processing', 'succeeded', 'succeeded']);
    const pdf = await fetch('https://files.stripe.com/v1/files/file_1Pfixture/contents');
    expect([pdf.headers.get('content-type'), Buffer.from(await pdf.arrayBuffer()).subarray(0, 8).toString()]).toEqual(['application/pdf', '%PDF-1.4']);
    const issue = await json('https://api.github.com/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'query Issue { x }', operationName: 'Issue', variables: { owner: 'acme', name: 'shop', number: 7 } }) });
    expect(issue.body).toEqual({ data: { repository: { issue: { title: 'Checkout is slow', state: 'OPEN' } } } });
  });
});

test('without host filters every non-asset call is kept; --include-assets keeps the assets too', async () => {
  const har = JSON.parse(readFileSync(HAR, 'utf8')) as unknown;
  expect(harExchanges(har).exchanges.map(({ request }) => new URL(request.url).host)).toEqual(['shop.test', 'api.stripe.com', 'api.stripe.com', 'api.stripe.com', 'api.stripe.com', 'files.stripe.com', 'api.github.com']);
  const all = harExchanges(har, { includeAssets: true });
  expect(all.exchanges).toHaveLength(11);
  expect(all.exchanges[3]!.response.body).toEqual(new Uint8Array(Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')));
});

test('request bodies from postData text, base64 text, or params', () => {
  const entry = (postData: object) => ({ request: { method: 'POST', url: 'https://api.test/x', headers: [], postData }, response: { status: 200, headers: [], content: { mimeType: 'application/json', text: '{}' } } });
  const { exchanges, skipped } = harExchanges({
    log: {
      entries: [
        entry({ mimeType: 'text/plain', text: 'plain' }),
        entry({ mimeType: 'application/octet-stream', text: 'AAEC', encoding: 'base64' }),
        entry({ mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'a b', value: '1&2' }, { name: 'c' }] }),
        { request: { url: 'nope' }, response: {} },
        'junk',
      ],
    },
  });
  expect(exchanges.map(({ request }) => request.body)).toEqual(['plain', new Uint8Array([0, 1, 2]), 'a+b=1%262&c=']);
  expect(skipped.unreadable).toEqual(['entry 3: "nope" is not a URL', 'entry 4: no request or response']);
});

test.each([
  ['missing.har', 'no such file'],
  ['not-json.har', 'it is not valid JSON'],
  ['not-a-har.json', 'it is not a HAR file: expected { "log": { "entries": [...] } }'],
])('%s fails with what was wrong and what to do', async (name, reason) => {
  writeFileSync(join(dir, 'not-json.har'), '{ "log": ');
  writeFileSync(join(dir, 'not-a-har.json'), '{ "openapi": "3.0.0" }');
  const error: unknown = await importHar(join(dir, name)).catch((caught: unknown) => caught);
  expect(isHarnessError(error)).toBe(true);
  expect((error as Error).message).toContain(`Failed to import ${join(dir, name)}: ${reason}`);
});

test('a request body typed only by postData.mimeType (no content-type header) is read by that type', async () => {
  const har = join(dir, 'mime-only.har');
  const entry = (text: string, status: string) => ({
    startedDateTime: '2024-06-20T10:00:00.000Z',
    request: { method: 'POST', url: 'https://auth.x.test/oauth/token', headers: [], postData: { mimeType: 'application/x-www-form-urlencoded', text } },
    response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }], content: { mimeType: 'application/json', text: JSON.stringify({ status }) } },
  });
  writeFileSync(har, JSON.stringify({ log: { entries: [entry('grant_type=client_credentials&client_id=app-1', 'client'), entry('grant_type=device_code&scope=write', 'device')] } }));
  const { recorded } = await importHar(har, { scenarioId: 'auth' });
  expect(recorded.scenarios.auth!.mocks.map((mock) => mock.match?.body)).toEqual([{ grant_type: 'client_credentials', client_id: 'app-1' }, { grant_type: 'device_code', scope: 'write' }]);

  const file = join(dir, 'mime-only.yaml');
  writeFileSync(file, await recorded.toFileText('yaml'));
  const { asTest } = await startHarness(await loadScenarios(file));
  await asTest('auth', async () => {
    // The app's own encoder writes the fields in another order: the fields still match.
    expect((await json('https://auth.x.test/oauth/token', { method: 'POST', body: new URLSearchParams({ scope: 'write', grant_type: 'device_code' }) })).body).toEqual({ status: 'device' });
    expect((await json('https://auth.x.test/oauth/token', { method: 'POST', body: new URLSearchParams({ client_id: 'app-1', grant_type: 'client_credentials' }) })).body).toEqual({ status: 'client' });
  });
});
