/**
 * Contracts at run time (issue 27), `onViolation: 'error'`: a call that breaks its document fails
 * as the app sees a network failure, with a message naming the violation; a call that fits is
 * answered. The document is given as an object here (the other files give paths).
 */
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startRelayApp, type RelayApp } from './relay-app.js';

const MUSEUM = 'https://api.fake-museum-example.com/v1';
const EVENT_ID = 'dad4bce8-f5cb-4078-a211-995864315e39';

/** A small 3.1 document as an object: the Museum's special events. */
const document = {
  openapi: '3.1.0',
  info: { title: 'Museum events', version: '1' },
  servers: [{ url: MUSEUM }],
  paths: {
    '/special-events/{eventId}': {
      get: {
        parameters: [{ name: 'eventId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: {
          '200': {
            description: 'The event',
            content: { 'application/json': { schema: { type: 'object', required: ['eventId', 'name', 'price'], properties: { eventId: { type: 'string' }, name: { type: 'string' }, price: { type: 'number' } } } } },
          },
        },
      },
    },
  },
};

const errors: string[] = [];
const harness = createHarness({
  enabled: true,
  announce: false,
  unhandled: 'error',
  scenarios: {
    default: {
      name: 'Events',
      mocks: [
        { method: 'GET', url: `${MUSEUM}/special-events/${EVENT_ID}`, response: { body: { eventId: EVENT_ID, name: 'Mermaids', price: 25 } } },
        { method: 'GET', url: `${MUSEUM}/special-events/not-a-uuid`, response: { body: { eventId: 'x', name: 'Mermaids', price: 25 } } },
        { method: 'GET', url: `${MUSEUM}/special-events/${EVENT_ID.replace('d', 'e')}`, response: { body: { eventId: EVENT_ID, name: 'Mermaids' } } },
      ],
    },
  },
  logger: { warn: (message) => errors.push(message), error: (message) => errors.push(message) },
  contracts: { openapi: [document], onViolation: 'error' },
});
let app: RelayApp;

beforeAll(async () => {
  app = await startRelayApp(harness);
});
afterAll(async () => {
  await app?.close();
});

test("a call that fits its document is answered as the mock says with onViolation: 'error'", async () => {
  const client = app.newTest();
  expect(await app.relay(client, { url: `${MUSEUM}/special-events/${EVENT_ID}` })).toEqual({ status: 200, body: JSON.stringify({ eventId: EVENT_ID, name: 'Mermaids', price: 25 }) });
  expect((await client.calls())[0]?.contractViolations).toEqual([]);
});

test("a request that breaks the document fails the app's call with the violation named, and the journal keeps it", async () => {
  const client = app.newTest();
  const relayed = await app.relay(client, { url: `${MUSEUM}/special-events/not-a-uuid` });
  expect(relayed).toEqual({
    error: `[scenario-harness] Failed to answer GET ${MUSEUM}/special-events/not-a-uuid of test "${client.testId}": the call breaks its API document (contracts.onViolation: 'error'):\n  - request.path.eventId: expected a string in the format "uuid", got the string "not-a-uuid" (GET /special-events/{eventId} in contracts.openapi[0] ("Museum events"))\nFix the app's request or the mock's answer so they fit the document, or set contracts: { onViolation: 'warn' } to answer anyway.`,
  });
  const [call] = await client.calls();
  expect(call).toMatchObject({ answered: true, status: 200, contractViolations: ['request.path.eventId: expected a string in the format "uuid", got the string "not-a-uuid" (GET /special-events/{eventId} in contracts.openapi[0] ("Museum events"))'] });
  // 'error' reports through the failure, not the log.
  expect(errors).toEqual([]);
});

test('a mock answer that breaks the document fails the call too', async () => {
  const client = app.newTest();
  const relayed = await app.relay(client, { url: `${MUSEUM}/special-events/${EVENT_ID.replace('d', 'e')}` });
  expect(relayed).toHaveProperty('error', expect.stringContaining('  - response.body.price: missing: the schema requires it (GET /special-events/{eventId} in contracts.openapi[0] ("Museum events"))'));
  await expect(client.expectNoContractViolations()).rejects.toThrow(/1 call broke them \(1 violation\):\n {2}GET https:\/\/api\.fake-museum-example\.com\/v1\/special-events\/\S+ → 200 by default#2\n {4}- response\.body\.price: missing/);
});
