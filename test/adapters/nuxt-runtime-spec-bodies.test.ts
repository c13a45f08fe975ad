/**
 * The SPEC bodies as the Nuxt module serves them, compared whole. The module's Nitro plugin calls
 * `startNitroHarness` from `scenario-harness/nuxt/runtime`, which answers the control endpoints on
 * every node:http server of the process (Nitro's node server is one). Here a plain node:http
 * server stands in for Nitro's, so no Nuxt build runs; test/frameworks/nuxt.test.ts drives real
 * Nuxt apps through the client. The checks mirror the adapter suite's "every SPEC body carries
 * exactly SPEC's keys" (test/conformance/adapter-suite.ts).
 * @see issue 24, item 1
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startNitroHarness } from 'scenario-harness/nuxt/runtime';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { conformanceScenarios } from '../conformance/scenarios.js';

const HEADER = 'x-harness-test-id';
let server: Server;
let origin: string;

beforeAll(async () => {
  // What the generated plugin does: `export default await startNitroHarness(source, settings)`.
  await startNitroHarness({ scenarios: conformanceScenarios }, { scenariosFile: 'server/scenarios.ts', dev: false, enabled: true, options: {} });
  // Nitro's server; whatever is not a harness path is the app's, which answers 418 to prove it got it.
  server = createServer((_req, res) => res.writeHead(418).end('the app'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** One raw control call: status, content type, the hint header and the parsed body, nothing dropped. */
async function send(testId: string, method: string, path: string, body?: string) {
  const response = await fetch(`${origin}${path}`, { method, headers: { 'content-type': 'application/json', [HEADER]: testId }, ...(body === undefined ? {} : { body }) });
  return { status: response.status, type: response.headers.get('content-type'), hint: response.headers.get('x-harness-hint'), body: (await response.json()) as Record<string, unknown> };
}

const json = expect.stringContaining('application/json');

test('the Nuxt module answers every SPEC body with exactly SPEC\'s keys; the help goes in x-harness-hint', async () => {
  const testId = randomUUID();
  // §4.2: no active scenario.
  expect(await send(testId, 'GET', '/__scenario__')).toEqual({ status: 404, type: json, hint: null, body: { error: 'No active scenario for this test ID', testId } });
  // §4.1: an unknown scenario; the near ID and the registered ones in the header.
  expect(await send(testId, 'POST', '/__scenario__', '{"scenario":"Friendly"}')).toEqual({
    status: 400,
    type: json,
    hint: 'Did you mean "friendly"? Registered scenarios: "default", "friendly", "grumpy".',
    body: { error: "Scenario 'Friendly' not found. Did you forget to register it?" },
  });
  // §4.1: an invalid body; every issue has exactly code, expected, received, path, message.
  const invalid = await send(testId, 'POST', '/__scenario__', '{"scenario":""}');
  expect(invalid).toMatchObject({ status: 400, hint: null });
  expect(Object.keys(invalid.body).sort()).toEqual(['details', 'error']);
  expect((invalid.body.details as object[]).map((issue) => Object.keys(issue).sort())).toEqual([['code', 'expected', 'message', 'path', 'received']]);
  // §4.1: a switch, then one to a variant the scenario does not declare (echoed; the warning in the header).
  expect(await send(testId, 'POST', '/__scenario__', '{"scenario":"friendly"}')).toEqual({ status: 200, type: json, hint: null, body: { success: true, testId, scenarioId: 'friendly' } });
  expect(await send(testId, 'POST', '/__scenario__', '{"scenario":"friendly","variant":"loud"}')).toEqual({
    status: 200,
    type: json,
    hint: 'Scenario "friendly" declares no variant "loud", so it adds no mocks. Declared variants: (none).',
    body: { success: true, testId, scenarioId: 'friendly', variant: 'loud' },
  });
  // §4.2, §4.3 and the reset.
  await send(testId, 'POST', '/__scenario__', '{"scenario":"friendly"}');
  expect(await send(testId, 'GET', '/__scenario__')).toEqual({ status: 200, type: json, hint: null, body: { testId, scenarioId: 'friendly', scenarioName: 'Friendly' } });
  expect(await send(testId, 'GET', '/__harness__/state')).toEqual({ status: 200, type: json, hint: null, body: { testId, state: {} } });
  expect(await send(testId, 'DELETE', '/__scenario__')).toEqual({ status: 200, type: json, hint: null, body: { success: true, testId } });
});

test('a path that is not the harness\'s reaches the app (the server above is the one the module scopes)', async () => {
  const response = await fetch(`${origin}/somewhere`, { headers: { [HEADER]: randomUUID() } });
  expect({ status: response.status, body: await response.text() }).toEqual({ status: 418, body: 'the app' });
});
