import { Ajv } from 'ajv';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isHarnessError, loadScenarios } from 'scenario-harness';
import { expect, test } from 'vitest';
import { idsModule } from '../../src/import/ids-module.js';
import { importOpenApi, type ImportOpenApiOptions } from '../../src/import/import-openapi.js';
import { formatScenarioFile } from '../../src/record/format-scenario-file.js';
import { json, startHarness } from '../engine/with-harness.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const validateFile = new Ajv({ allErrors: true }).compile(JSON.parse(readFileSync(new URL('../../schema.json', import.meta.url), 'utf8')) as object);
const dir = mkdtempSync(join(tmpdir(), 'openapi-'));

/** Import a bundled document, check the file is valid by schema.json and loadScenarios, and return the loaded scenarios. */
async function imported(fixture: string, options: ImportOpenApiOptions = {}) {
  const result = await importOpenApi(join(FIXTURES, fixture), options);
  expect(validateFile(result.scenarios), JSON.stringify(validateFile.errors)).toBe(true);
  const file = join(dir, `${fixture}.${options.server ?? 'first'}.json`);
  writeFileSync(file, await formatScenarioFile(result.scenarios, 'json'));
  return { ...result, loaded: await loadScenarios(file) };
}

const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

test.each(['petstore-swagger2.json', 'api-with-examples-openapi30.yaml', 'payments-openapi30.yaml', 'museum-openapi31.yaml'])('%s imports into a valid scenario file, the same text every time', async (fixture) => {
  const first = await imported(fixture);
  const again = await importOpenApi(join(FIXTURES, fixture));
  expect(await formatScenarioFile(again.scenarios, 'yaml')).toBe(await formatScenarioFile(first.scenarios, 'yaml'));
  expect(first.ids).toEqual(Object.keys(first.scenarios));
});

test('OpenAPI 3.0 with named examples and error responses: one POST after a switch answers card_declined', async () => {
  const { ids, loaded, exampleSources, specification, operations } = await imported('payments-openapi30.yaml', { name: 'payments' });
  expect([specification, operations, exampleSources]).toEqual(['OpenAPI 3.0.3', 4, { examples: 1, sample: 3 }]);
  expect(ids).toEqual([
    'default',
    'payments:createCharge:succeeded',
    'payments:createCharge:card_declined',
    'payments:createCharge:insufficient_funds',
    'payments:createCharge:402',
    'payments:createCharge:429',
    'payments:retrieveCharge:404',
    'payments:createRefund:5XX',
  ]);
  const { harness, asTest } = await startHarness(loaded);
  const visa = form({ amount: '2000', currency: 'usd', source: 'tok_visa' });
  await asTest(undefined, async () => {
    expect(await json('https://api.payments.test/v1/charges', visa)).toEqual({ status: 200, body: { id: 'ch_3PabcSucceeded', object: 'charge', amount: 2000, currency: 'usd', paid: true, status: 'succeeded' } });
    // The request example "card_declined" shares its name with a response example: that body answers 402 in the default scenario too.
    const declinedBody = await json('https://api.payments.test/v1/charges', form({ amount: '2000', currency: 'usd', source: 'tok_chargeDeclined' }));
    expect(declinedBody).toMatchObject({ status: 402, body: { error: { decline_code: 'generic_decline' } } });
    // No example: a deterministic sample of the schema, path parameters as :params.
    expect(await json('https://api.payments.test/v1/charges/ch_anything')).toEqual({ status: 200, body: { id: 'ch_3PabcDefault', object: 'charge', amount: 2000, currency: 'usd', paid: true, status: 'succeeded', created: 1718900000 } });
    const refund = await fetch('https://api.payments.test/v1/charges/ch_1/refunds', { method: 'POST' });
    expect([refund.status, refund.headers.get('idempotent-replayed')]).toEqual([201, 'false']);
  });
  const switchTo = async (scenario: string) => {
    const response = await harness.handle(new Request('http://app.test/__scenario__', { method: 'POST', headers: { 'content-type': 'application/json', 'x-harness-test-id': scenario }, body: JSON.stringify({ scenario }) }));
    expect(response?.status).toBe(200);
  };
  for (const [scenario, status, declineCode] of [['payments:createCharge:card_declined', 402, 'generic_decline'], ['payments:createCharge:insufficient_funds', 402, 'insufficient_funds'], ['payments:createCharge:402', 402, 'generic_decline']] as const) {
    await switchTo(scenario);
    const answer = await harness.run(scenario, () => json('https://api.payments.test/v1/charges', visa));
    expect(answer).toMatchObject({ status, body: { error: { code: 'card_declined', decline_code: declineCode } } });
  }
  await switchTo('payments:createCharge:429');
  expect(await harness.run('payments:createCharge:429', () => json('https://api.payments.test/v1/charges', visa))).toMatchObject({ status: 429, body: { error: { type: 'rate_limit_error' } } });
  await switchTo('payments:retrieveCharge:404');
  expect(await harness.run('payments:retrieveCharge:404', () => json('https://api.payments.test/v1/charges/ch_missing'))).toMatchObject({ status: 404, body: { error: { code: 'resource_missing' } } });
  // Only the switched operation changes; the others fall back to the default scenario.
  expect(await harness.run('payments:retrieveCharge:404', () => json('https://api.payments.test/v1/charges', visa))).toMatchObject({ status: 200 });
  await switchTo('payments:createRefund:5XX');
  expect((await harness.run('payments:createRefund:5XX', () => fetch('https://api.payments.test/v1/charges/ch_1/refunds', { method: 'POST' }))).status).toBe(500);
});

test('--server picks another server (its variables at their defaults), or takes a URL of your own', async () => {
  const sandbox = await importOpenApi(join(FIXTURES, 'payments-openapi30.yaml'), { server: '1' });
  expect(sandbox.scenarios.default!.mocks[0]!.url).toBe('https://sandbox.payments.test/v1/charges');
  const local = await importOpenApi(join(FIXTURES, 'payments-openapi30.yaml'), { server: 'http://localhost:4010/api/' });
  expect(local.scenarios.default!.mocks.map((mock) => mock.url)).toEqual(['http://localhost:4010/api/charges', 'http://localhost:4010/api/charges', 'http://localhost:4010/api/charges', 'http://localhost:4010/api/charges/:charge', 'http://localhost:4010/api/charges/:charge/refunds']);
  const anyOrigin = await importOpenApi(join(FIXTURES, 'payments-openapi30.yaml'), { server: '/v2' });
  expect(anyOrigin.scenarios.default!.mocks[0]!.url).toBe('/v2/charges');
  await expect(importOpenApi(join(FIXTURES, 'payments-openapi30.yaml'), { server: '5' })).rejects.toThrow('--server 5 is out of range. Its servers: 0: https://api.payments.test/v1, 1: https://sandbox.payments.test/v1. Give an index or a URL.');
});

test('Swagger 2: host + basePath + https, the response example by media type, a sample of the schema otherwise', async () => {
  const { loaded, ids, notes } = await imported('petstore-swagger2.json', { name: 'petstore' });
  expect(ids).toEqual(['default', 'petstore:addPet:405', 'petstore:findPetsByStatus:400', 'petstore:getPetById:400', 'petstore:getPetById:404', 'petstore:deletePet:400', 'petstore:deletePet:404']);
  expect(notes).toEqual(['DELETE /pet/{petId} (deletePet): no 2xx or default response documented; no mock in "default"']);
  const { harness, asTest } = await startHarness(loaded);
  await asTest(undefined, async () => {
    expect(await json('https://petstore.swagger.io/v2/pet/10')).toMatchObject({ status: 200, body: { id: 10, name: 'doggie', status: 'available' } });
    expect(await json('https://petstore.swagger.io/v2/pet/findByStatus?status=sold')).toEqual({ status: 200, body: [{ id: 0, category: { id: 0, name: 'string' }, name: 'doggie', photoUrls: ['string'], tags: [{ id: 0, name: 'string' }], status: 'available' }] });
    expect(await json('https://petstore.swagger.io/v2/store/inventory')).toEqual({ status: 200, body: { property1: 0, property2: 0 } });
  });
  await harness.switchScenario('t-404', 'petstore:getPetById:404');
  const missing = await harness.run('t-404', () => fetch('https://petstore.swagger.io/v2/pet/10'));
  expect([missing.status, await missing.text()]).toEqual([404, '']);
});

test('no servers: path-only patterns answer any origin; examples sharing a name across statuses get distinct IDs', async () => {
  const { loaded, ids } = await imported('api-with-examples-openapi30.yaml');
  expect(ids).toEqual(['default', 'listVersionsv2:foo', 'listVersionsv2:300:foo', 'getVersionDetailsv2:foo', 'getVersionDetailsv2:203:foo']);
  expect(loaded.default!.mocks.map((mock) => mock.url)).toEqual(['/', '/v2']);
  const { harness, asTest } = await startHarness(loaded);
  await asTest(undefined, async () => {
    expect(await json('https://compute.example.test/v2')).toMatchObject({ status: 200, body: { version: { id: 'v2.0', status: 'CURRENT' } } });
  });
  // The 300 example is JSON written as a string: sent as JSON.
  await harness.switchScenario('t-300', 'listVersionsv2:300:foo');
  expect(await harness.run('t-300', () => json('http://10.0.0.1:8774/'))).toMatchObject({ status: 300, body: { versions: [{ id: 'v2.0' }, { id: 'v3.0' }] } });
});

test('OpenAPI 3.1: $ref examples, responses and parameters resolved, oneOf sampled, problem+json kept, binary without bytes noted', async () => {
  const { loaded, notes } = await imported('museum-openapi31.yaml', { name: 'museum' });
  expect(notes).toEqual(['GET /tickets/{ticketId}/qr (getTicketCode): image/png: no example bytes to send; the mock answers with no body (set "bodyBase64" by hand)']);
  const { harness, asTest } = await startHarness(loaded);
  await asTest(undefined, async () => {
    expect(await json('https://api.fake-museum-example.com/v1/museum-hours')).toEqual({ status: 200, body: [{ date: '2023-09-11', timeOpen: '09:00', timeClose: '18:00' }, { date: '2023-09-12', timeOpen: '09:00', timeClose: '18:00' }] });
    expect(await json('https://api.fake-museum-example.com/v1/special-events/e-1')).toMatchObject({ status: 200, body: { name: 'Pirate Coin Competition', host: { kind: 'staff', department: 'Maritime history' } } });
    const ticket = (body: object) => json('https://api.fake-museum-example.com/v1/tickets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(await ticket({ ticketType: 'general', ticketDate: '2023-09-07', email: 'a@b.test' })).toMatchObject({ status: 201, body: { ticketType: 'general' } });
    expect(await ticket({ ticketType: 'event', eventId: 'dad4bce8-f5cb-4078-a211-995864315e39', ticketDate: '2023-09-05', email: 'todd@example.com' })).toMatchObject({ status: 201, body: { ticketType: 'event', eventName: 'Mermaid Treasure Identification and Analysis' } });
  });
  await harness.switchScenario('t-400', 'museum:buyMuseumTickets:400');
  const bad = await harness.run('t-400', () => fetch('https://api.fake-museum-example.com/v1/tickets', { method: 'POST', body: '{}' }));
  expect([bad.status, bad.headers.get('content-type'), await bad.json()]).toEqual([400, 'application/problem+json', { type: 'object', title: 'Validation failed' }]);
});

test('the IDs module lists the generated IDs as const, with a scenario-map type for typed switching', async () => {
  const { ids } = await importOpenApi(join(FIXTURES, 'payments-openapi30.yaml'), { name: 'payments' });
  // test/typings/imported-ids.test-d.ts compiles against this committed copy.
  expect(idsModule(ids, { name: 'payments', command: 'scenario-harness import openapi test/import/fixtures/payments-openapi30.yaml --name payments' })).toBe(readFileSync(join(FIXTURES, 'payments.ids.ts'), 'utf8'));
});

test.each([
  ['missing.yaml', /^Failed to import .*missing\.yaml: no such file\. Check the path/],
  ['../fixtures', /^Failed to import .*fixtures: it is a directory/],
  ['checkout.har', /^Failed to import .*checkout\.har: it is not a valid OpenAPI or Swagger document:\n[\s\S]*Supplied schema is not a valid API definition/],
])('a bad input (%s) fails with what was wrong', async (name, message) => {
  const error: unknown = await importOpenApi(join(FIXTURES, name)).catch((caught: unknown) => caught);
  expect(isHarnessError(error)).toBe(true);
  expect((error as Error).message).toMatch(message);
});

test('a status a mock cannot answer (1xx) is skipped with a note; an odd path becomes a regex with named groups', async () => {
  const odd = join(dir, 'odd.yaml');
  writeFileSync(odd, [
    'openapi: 3.0.3',
    'info: { title: Odd, version: "1" }',
    'servers: [{ url: "https://ops.example.test/v1" }]',
    'paths:',
    '  /operations/{operation-id}:cancel:',
    '    post:',
    '      operationId: cancelOperation',
    '      parameters: [{ name: operation-id, in: path, required: true, schema: { type: string } }]',
    '      responses:',
    '        "101": { description: Switching }',
    '        "200": { description: Cancelled, content: { application/json: { schema: { type: object, properties: { done: { type: boolean, example: true } } } } } }',
  ].join('\n'));
  const { scenarios, notes } = await importOpenApi(odd);
  expect(notes).toEqual(['POST /operations/{operation-id}:cancel (cancelOperation): response 101 skipped: a mock answers 200–599']);
  expect(scenarios.default!.mocks[0]!.url).toEqual({ regex: { source: '^https://ops\\.example\\.test/v1/operations/(?<operation_id>[^/?#:]+):cancel/?(?:[?#].*)?$' } });
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => expect(await json('https://ops.example.test/v1/operations/op-7:cancel', { method: 'POST' })).toEqual({ status: 200, body: { done: true } }));
});

test('an invalid document fails with the parser\'s own message and the way out', async () => {
  const broken = join(dir, 'broken.yaml');
  writeFileSync(broken, 'openapi: 3.0.3\ninfo: { title: Broken, version: "1" }\npaths:\n  /a:\n    get:\n      responses:\n        "200": { content: {} }\n');
  const error = (await importOpenApi(broken).catch((caught: unknown) => caught)) as Error;
  expect(error.message).toContain(`Failed to import ${broken}: it is not a valid OpenAPI or Swagger document:\n`);
  expect(error.message).toContain('description');
  expect(error.message).toContain('Fix the document, or pass --skip-validation to import it as it is.');
  const lenient = await importOpenApi(broken, { validate: false });
  expect(lenient.scenarios.default!.mocks).toEqual([{ id: 'getA', method: 'GET', url: '/a', response: { status: 200 } }]);
});

test('an invalid document\'s errors point at the user\'s YAML file, its own lines and columns, not a JSON rendering', async () => {
  const file = join(dir, 'invalid.yaml');
  writeFileSync(
    file,
    [
      'openapi: 3.0.3',
      'info: { title: T, version: "1" }',
      'paths:',
      '  /pets:',
      '    get:',
      '      responses:',
      "        '200':",
      '          description: ok',
      '          content:',
      '            application/json:',
      '              schema:',
      '                properties:',
      '                  id: { type: intger }',
      '    post:',
      '      respones: {}',
      '',
    ].join('\n'),
  );
  const error = await importOpenApi(file).then(() => undefined, (reason: Error) => reason);
  expect(isHarnessError(error) && error.code).toBe('INVALID_ARGUMENT');
  const { message } = error!;
  expect(message).toContain(`(array, boolean, integer, number, object, string)\nat line 13, column 25 of ${file} (Did you mean integer here?):\n\n  11 |               schema:\n  12 |                 properties:\n> 13 |                   id: { type: intger }\n     |                         ^\n`);
  expect(message).toContain(`REQUIRED must have required property 'responses'\nat line 14, column 5 of ${file} (responses is missing here!):\n\n  12 |                 properties:\n  13 |                   id: { type: intger }\n> 14 |     post:\n     |     ^\n`);
  expect(message).not.toContain('"type": "intger"');
});
