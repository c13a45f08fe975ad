/**
 * The access token in scenario-harness/client and the Playwright HarnessClient, over real HTTP
 * against a node:http app whose harness has `access: { token }`: sent on control calls only,
 * from the option or HARNESS_TOKEN, and refused with a message that says what to do.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as playwrightRequest } from '@playwright/test';
import { createHarness, isHarnessError } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { withHarness } from 'scenario-harness/node';
import { HarnessClient } from 'scenario-harness/playwright';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';

const TOKEN = 'c41d8e7f2a9b4c60b1e3f5a7d9c2e4f6';
const scenarios = {
  default: { name: 'Default', mocks: [] },
  premium: { name: 'Premium', mocks: [] },
};
const harness = createHarness({ enabled: true, scenarios, access: { token: TOKEN }, announce: false });
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
let server: Server;
let baseURL: string;

beforeAll(async () => {
  await harness.start();
  const app = withHarness(harness, (_req, res) => void res.end('{}'));
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await harness.stop();
});
const envBefore = process.env.HARNESS_TOKEN;
afterEach(() => {
  if (envBefore === undefined) delete process.env.HARNESS_TOKEN;
  else process.env.HARNESS_TOKEN = envBefore;
});

/** The control calls a client makes in a test's life, and what the app then holds. */
async function useClient(client: { switchScenario(id: 'premium'): Promise<void>; getState(): Promise<unknown>; listScenarios(): Promise<unknown[]>; endTest(): Promise<void>; testId: string }) {
  await client.switchScenario('premium');
  expect(await harness.getActiveScenario(client.testId)).toEqual({ scenarioId: 'premium' });
  expect(await client.getState()).toEqual({});
  expect(await client.listScenarios()).toHaveLength(2);
  await client.endTest();
  expect(await harness.getActiveScenario(client.testId)).toBeUndefined();
}

test('createHarnessClient({ token }) sends it as a Bearer credential on control calls only', async () => {
  delete process.env.HARNESS_TOKEN;
  const client = createHarnessClient<typeof scenarios>({ baseURL, token: TOKEN });
  seen.length = 0;
  await useClient(client);
  expect(seen.map(({ headers }) => headers.authorization)).toEqual(Array(4).fill(`Bearer ${TOKEN}`));
  expect(client.headers).not.toHaveProperty('authorization');
  await fetch(`${baseURL}/checkout`, { headers: client.headers });
  expect(seen.at(-1)?.headers.authorization).toBeUndefined();
});

test('without a token the client fails with the app\'s 401, which says how to send one', async () => {
  delete process.env.HARNESS_TOKEN;
  const client = createHarnessClient<typeof scenarios>({ baseURL, testId: randomUUID() });
  const error = await client.switchScenario('premium').catch((e: unknown) => e);
  expect(isHarnessError(error)).toBe(true);
  expect((error as Error).message).toBe(
    `Failed to switch test "${client.testId}" to scenario "premium": POST ${baseURL}/__scenario__ answered 401: Missing Authorization header: the control endpoints of this app require a token. Send "Authorization: Bearer <token>" with the token the app was given in createHarness({ access: { token } }): createHarnessClient({ token }), the Playwright option harnessToken, or the HARNESS_TOKEN environment variable.`,
  );
});

test('the token comes from HARNESS_TOKEN when the option is left out; the option wins over it', async () => {
  process.env.HARNESS_TOKEN = TOKEN;
  await useClient(createHarnessClient<typeof scenarios>({ baseURL }));
  process.env.HARNESS_TOKEN = 'not-the-token-0000000000000000';
  await useClient(createHarnessClient<typeof scenarios>({ baseURL, token: TOKEN }));
  const wrong = await createHarnessClient<typeof scenarios>({ baseURL }).switchScenario('premium').catch((e: unknown) => e);
  expect((wrong as Error).message).toMatch(/answered 401: Wrong credentials: /);
  expect((wrong as Error).message).not.toContain('not-the-token');
  process.env.HARNESS_TOKEN = '';
  const none = await createHarnessClient<typeof scenarios>({ baseURL }).getState().catch((e: unknown) => e);
  expect((none as Error).message).toMatch(/answered 401: Missing Authorization header/);
});

test('a token that cannot be sent in a header is refused up front, naming where it came from and not showing it', () => {
  expect(() => createHarnessClient({ baseURL, token: 'two words' })).toThrow(
    'Failed to use createHarnessClient({ token }) as the token for the app\'s control endpoints: it has characters a bearer token cannot carry',
  );
  expect(() => createHarnessClient({ baseURL, token: '' })).toThrow('Failed to use createHarnessClient({ token }) as the token for the app\'s control endpoints: it is empty.');
  process.env.HARNESS_TOKEN = 'line\nbreak';
  let message = '';
  try {
    createHarnessClient({ baseURL });
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).toMatch(/^Failed to use the HARNESS_TOKEN environment variable as the token/);
  expect(message).not.toContain('line\nbreak');
});

test('the Playwright HarnessClient sends its token through the request context', async () => {
  const request = await playwrightRequest.newContext();
  try {
    seen.length = 0;
    await useClient(new HarnessClient<typeof scenarios>({ request, testId: randomUUID(), baseURL, token: TOKEN }));
    expect(seen.map(({ headers }) => headers.authorization)).toEqual(Array(4).fill(`Bearer ${TOKEN}`));
    const error = await new HarnessClient<typeof scenarios>({ request, testId: randomUUID(), baseURL }).switchScenario('premium').catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/answered 401: Missing Authorization header/);
  } finally {
    await request.dispose();
  }
});
