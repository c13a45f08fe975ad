/**
 * Contracts at run time (issue 27), `onViolation: 'warn'`: an Express app whose calls are
 * answered by per-test mocks and checked against the three documents bundled for the import
 * tests (Swagger 2 Petstore, the Stripe-shaped payments 3.0, the 3.1 Museum), over real HTTP.
 */
import { fileURLToPath } from 'node:url';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startRelayApp, type RelayApp } from './relay-app.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../import/fixtures/${name}`, import.meta.url));
const PETSTORE = 'https://petstore.swagger.io/v2';
const PAYMENTS = 'https://api.payments.test/v1';
const MUSEUM = 'https://api.fake-museum-example.com/v1';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_BODY = { 'content-type': 'application/json' };

const warnings: string[] = [];
const harness = createHarness({
  enabled: true,
  announce: false,
  unhandled: 'error',
  scenarios: { default: { name: 'Nothing', mocks: [] } },
  logger: { warn: (message) => warnings.push(message), error: (message) => warnings.push(message) },
  contracts: { openapi: [fixture('petstore-swagger2.json'), fixture('payments-openapi30.yaml'), fixture('museum-openapi31.yaml')] },
});
let app: RelayApp;

beforeAll(async () => {
  app = await startRelayApp(harness);
});
afterAll(async () => {
  await app?.close();
});

test('calls that fit their documents carry contractViolations: [] and expectNoContractViolations passes; a call under no document has no field', async () => {
  const client = app.newTest();
  await client.use(
    { method: 'GET', url: `${PETSTORE}/pet/:id`, response: { body: { id: 7, name: 'Rex', photoUrls: [], status: 'available' } } },
    { method: 'POST', url: `${PAYMENTS}/charges`, response: { body: { id: 'ch_1', object: 'charge', amount: 2000, currency: 'usd', paid: true, status: 'succeeded' } } },
    { method: 'POST', url: `${MUSEUM}/tickets`, response: { status: 201, body: { message: 'ok', ticketId: '382c0820-0530-4f4b-99af-13811ad0f17a', ticketType: 'general', ticketDate: '2023-09-07', confirmationCode: 'c-1' } } },
    { method: 'GET', url: `${MUSEUM}/museum-hours`, response: { body: [{ date: '2023-09-11', timeOpen: '09:00', timeClose: '18:00' }] } },
    { method: 'GET', url: 'https://elsewhere.test/ping', response: { body: 'pong' } },
  );
  await app.relay(client, { url: `${PETSTORE}/pet/7` });
  await app.relay(client, { method: 'POST', url: `${PAYMENTS}/charges`, headers: FORM, body: 'amount=2000&currency=usd&source=tok_visa' });
  await app.relay(client, { method: 'POST', url: `${MUSEUM}/tickets`, headers: JSON_BODY, body: JSON.stringify({ ticketType: 'general', ticketDate: '2023-09-07', email: 'todd@example.com' }) });
  await app.relay(client, { url: `${MUSEUM}/museum-hours?startDate=2023-09-11&limit=5` });
  await app.relay(client, { url: 'https://elsewhere.test/ping' });

  const calls = await client.calls();
  expect(calls.map((call) => [call.status, call.contractViolations])).toEqual([[200, []], [200, []], [201, []], [200, []], [200, undefined]]);
  expect(calls[4]).not.toHaveProperty('contractViolations');
  expect(await client.expectNoContractViolations()).toHaveLength(4);
});

test('a request body missing a required field is a violation, and expectNoContractViolations lists it with the call', async () => {
  const client = app.newTest();
  await client.use({ method: 'POST', url: `${MUSEUM}/tickets`, response: { status: 201, body: { message: 'ok', ticketId: '382c0820-0530-4f4b-99af-13811ad0f17a', ticketType: 'general', ticketDate: '2023-09-07', confirmationCode: 'c-2' } } });
  const relayed = await app.relay(client, { method: 'POST', url: `${MUSEUM}/tickets`, headers: JSON_BODY, body: JSON.stringify({ ticketType: 'general' }) });
  // 'warn': the app still gets the mock's answer.
  expect(relayed).toMatchObject({ status: 201 });
  const [call] = await client.calls();
  expect(call?.contractViolations).toEqual(['request.body.ticketDate: missing: the schema requires it (POST /tickets in museum-openapi31.yaml)']);
  const failure = await client.expectNoContractViolations().then(() => undefined, (error: Error) => error.message);
  expect(failure).toContain(`POST ${MUSEUM}/tickets → 201`);
  expect(failure).toContain('    - request.body.ticketDate: missing: the schema requires it (POST /tickets in museum-openapi31.yaml)');
});

test('a query parameter of the wrong type, and a path parameter of the wrong type, are violations', async () => {
  const client = app.newTest();
  await client.use(
    { method: 'GET', url: `${MUSEUM}/museum-hours`, response: { body: [] } },
    { method: 'GET', url: `${PETSTORE}/pet/:id`, response: { body: { name: 'Rex', photoUrls: [] } } },
  );
  await app.relay(client, { url: `${MUSEUM}/museum-hours?limit=many` });
  await app.relay(client, { url: `${PETSTORE}/pet/rex` });
  const calls = await client.calls();
  expect(calls.map((call) => call.contractViolations)).toEqual([
    ['request.query.limit: expected integer, got the string "many" (GET /museum-hours in museum-openapi31.yaml)'],
    ['request.path.petId: expected integer, got the string "rex" (GET /pet/{petId} in petstore-swagger2.json)'],
  ]);
});

test('a status the operation does not declare, and a body that does not fit its schema, are violations of the mock', async () => {
  const client = app.newTest();
  await client.use(
    { method: 'GET', url: `${PETSTORE}/pet/:id`, response: { status: 418, body: { name: 'Teapot', photoUrls: [] } } },
    { method: 'POST', url: `${PAYMENTS}/charges`, response: { body: { id: 'ch_2', object: 'charge', amount: '2000', paid: 'yes' } } },
  );
  await app.relay(client, { url: `${PETSTORE}/pet/1` });
  await app.relay(client, { method: 'POST', url: `${PAYMENTS}/charges`, headers: FORM, body: 'amount=2000&currency=usd' });
  const calls = await client.calls();
  expect(calls.map((call) => call.contractViolations)).toEqual([
    ['response.status: expected a status GET /pet/{petId} documents (200, 400, 404), got 418 (GET /pet/{petId} in petstore-swagger2.json)'],
    [
      'response.body.amount: expected integer, got the string "2000" (POST /charges in payments-openapi30.yaml)',
      'response.body.paid: expected boolean, got the string "yes" (POST /charges in payments-openapi30.yaml)',
    ],
  ]);
});

test("'warn' logs each distinct problem once, however often the call repeats", async () => {
  const client = app.newTest();
  await client.use({ method: 'GET', url: `${PETSTORE}/store/inventory`, response: { body: { available: 'many' } } });
  for (let i = 0; i < 3; i++) expect(await app.relay(client, { url: `${PETSTORE}/store/inventory` })).toMatchObject({ status: 200 });
  const calls = await client.calls();
  expect(calls.map((call) => call.contractViolations?.length)).toEqual([1, 1, 1]);
  const logged = warnings.filter((message) => message.includes('response.body.available'));
  expect(logged).toEqual([
    `Contract violation in GET ${PETSTORE}/store/inventory of test "${client.testId}": response.body.available: expected integer, got the string "many" (GET /store/inventory in petstore-swagger2.json). The call was answered as the mock says (contracts.onViolation: 'warn'; each distinct problem is logged once).`,
  ]);
});

test('a path under a document\'s servers that it does not document, and an undocumented method, are violations', async () => {
  const client = app.newTest();
  await client.use({ url: `${PAYMENTS}/customers`, response: { body: {} } }, { method: 'DELETE', url: `${PAYMENTS}/charges`, response: { status: 204 } });
  await app.relay(client, { url: `${PAYMENTS}/customers` });
  await app.relay(client, { method: 'DELETE', url: `${PAYMENTS}/charges` });
  const calls = await client.calls();
  expect(calls.map((call) => call.contractViolations)).toEqual([
    ['url: expected a path payments-openapi30.yaml documents: /v1/customers is under its servers, but none of its paths matches it (payments-openapi30.yaml)'],
    ['method: expected a method /charges documents (POST, GET), got DELETE (/charges in payments-openapi30.yaml)'],
  ]);
});
