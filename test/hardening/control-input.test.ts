import { randomUUID } from 'node:crypto';
import { createHarness, isHarnessError, type Harness, type Logger } from 'scenario-harness';
import { afterEach, expect, test } from 'vitest';

const scenarios = {
  default: { name: 'Default', mocks: [{ url: 'https://api.x.test/who', response: { body: 'default' } }] },
  premium: { name: 'Premium', mocks: [{ url: 'https://api.x.test/who', response: { body: 'premium' } }] },
};

const created: Harness[] = [];
// A control request starts a harness nobody started; a started one answers calls until stopped.
afterEach(async () => {
  await Promise.all(created.splice(0).map((harness) => harness.stop()));
});

function setup(options: { limits?: { maxBodyBytes?: number; maxTestIdLength?: number } } = {}) {
  const warnings: string[] = [];
  const logger: Logger = { warn: (m) => warnings.push(m), error: (m) => warnings.push(m) };
  const harness = createHarness({ enabled: true, scenarios, logger, ...options });
  created.push(harness);
  const send = async (init: RequestInit & { path?: string } = {}) => {
    const response = await harness.handle(new Request(`http://app.test${init.path ?? '/__scenario__'}`, { method: 'POST', ...init }));
    if (response === null) throw new Error('not a control request');
    return { status: response.status, contentType: response.headers.get('content-type'), body: (await response.json()) as Record<string, unknown> };
  };
  return { harness, send, warnings };
}

/** A body stream that sends `bytes` in 1 KiB chunks and then stays open until `close()`. */
function openStream(bytes: number) {
  let sent = 0;
  let close!: () => void;
  const closed = new Promise<void>((resolve) => (close = resolve));
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent >= bytes) {
        await closed;
        return controller.close();
      }
      sent += 1024;
      controller.enqueue(new Uint8Array(1024).fill(120));
    },
  });
  return { stream, close };
}

const TOO_LARGE = { status: 413, contentType: 'application/json', body: { error: 'Request body too large' } };

test('a body over 64 KiB is 413 Request body too large, answered while the client is still sending', async () => {
  const { send } = setup();
  const { stream, close } = openStream(256 * 1024);
  try {
    expect(await send({ body: stream, duplex: 'half' } as RequestInit)).toEqual(TOO_LARGE);
  } finally {
    close();
  }
  expect(await send({ body: `{"scenario":"premium","pad":"${'x'.repeat(64 * 1024)}"}` })).toEqual(TOO_LARGE);
});

test('a declared Content-Length over the limit is refused before a byte arrives', async () => {
  const { send } = setup();
  const { stream, close } = openStream(0);
  try {
    expect(await send({ body: stream, duplex: 'half', headers: { 'content-length': String(1024 * 1024) } } as RequestInit)).toEqual(TOO_LARGE);
  } finally {
    close();
  }
});

test('limits.maxBodyBytes moves the limit both ways', async () => {
  const small = setup({ limits: { maxBodyBytes: 16 } });
  expect(await small.send({ body: '{"scenario":"premium"}' })).toEqual(TOO_LARGE);
  const large = setup({ limits: { maxBodyBytes: 1024 * 1024 } });
  expect((await large.send({ body: `{"scenario":"premium","pad":"${'x'.repeat(100 * 1024)}"}` })).status).toBe(200);
});

test('a valid JSON body is accepted whatever the content type, or without one', async () => {
  const { send } = setup();
  for (const contentType of [undefined, 'application/json', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'application/json, application/json', 'nonsense/\u00e9']) {
    const testId = randomUUID();
    const headers: Record<string, string> = { 'x-harness-test-id': testId };
    if (contentType !== undefined) headers['content-type'] = contentType;
    expect(await send({ headers, body: '{"scenario":"premium"}' })).toMatchObject({ status: 200, body: { success: true, testId, scenarioId: 'premium' } });
  }
});

test.each([
  ['no body at all', undefined, 'invalid_json'],
  ['whitespace', ' \n\t ', 'invalid_json'],
  ['form data', 'scenario=premium', 'invalid_json'],
  ['truncated JSON', '{"scenario":"prem', 'invalid_json'],
  ['a byte-order mark', '\ufeff{"scenario":"premium"}', 'invalid_json'],
  ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), 'invalid_json'],
  ['a JSON array', '[{"scenario":"premium"}]', 'invalid_type'],
  ['a JSON string', '"premium"', 'invalid_type'],
  ['JSON true', 'true', 'invalid_type'],
  ['deeply nested arrays', `${'['.repeat(20_000)}${']'.repeat(20_000)}`, 'too_deep'], // refused for its depth before its type is checked (issue 23, item 14)
  ['a nested scenario', '{"scenario":{"scenario":"premium"}}', 'invalid_type'],
  ['an empty array as scenario', '{"scenario":[]}', 'invalid_type'],
])('%s is 400 Invalid request body with details, whatever the content type', async (_name, body, code) => {
  const { send } = setup();
  for (const contentType of ['application/json', 'text/plain']) {
    const result = await send({ body, headers: { 'content-type': contentType } });
    expect(result).toMatchObject({ status: 400, contentType: 'application/json', body: { error: 'Invalid request body' } });
    expect(result.body.details).toEqual([expect.objectContaining({ code, path: expect.any(Array), message: expect.any(String) })]);
  }
});

test('a body stream that breaks mid-way is 400, not 500', async () => {
  const { harness, send, warnings } = setup();
  await harness.start();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"scenario":'));
      controller.error(new Error('socket hang up'));
    },
  });
  expect(await send({ body: stream, duplex: 'half' } as RequestInit)).toMatchObject({ status: 400, body: { error: 'Invalid request body' } });
  expect(warnings).toEqual([]);
});

test('repeated test-ID headers combine into one test ID (HTTP\'s rule), answered as usual', async () => {
  const { send } = setup();
  const headers = new Headers([['x-harness-test-id', 'a'], ['x-harness-test-id', 'b'], ['content-type', 'application/json'], ['content-type', 'text/plain']]);
  expect(await send({ headers, body: '{"scenario":"premium"}' })).toMatchObject({ status: 200, body: { testId: 'a, b' } });
  expect(await send({ method: 'GET', headers })).toMatchObject({ status: 200, body: { testId: 'a, b', scenarioId: 'premium' } });
});

test('a test ID over 256 characters is a 400 on every control endpoint, naming the limit', async () => {
  const { send } = setup();
  const headers = { 'x-harness-test-id': 'x'.repeat(257) };
  for (const init of [{ body: '{"scenario":"premium"}' }, { method: 'GET' }, { method: 'GET', path: '/__harness__/state' }, { method: 'DELETE' }]) {
    const result = await send({ headers, ...init });
    expect(result).toMatchObject({ status: 400, contentType: 'application/json' });
    expect(result.body).toEqual({ error: expect.stringMatching(/x-harness-test-id header has 257 characters, the limit is 256 \(limits\.maxTestIdLength\)/) });
  }
  expect((await send({ headers: { 'x-harness-test-id': 'x'.repeat(256) }, body: '{"scenario":"premium"}' })).status).toBe(200);
});

test('limits.maxTestIdLength is configurable', async () => {
  const { send } = setup({ limits: { maxTestIdLength: 8 } });
  expect((await send({ headers: { 'x-harness-test-id': '123456789' }, body: '{"scenario":"premium"}' })).status).toBe(400);
  expect((await send({ headers: { 'x-harness-test-id': '12345678' }, body: '{"scenario":"premium"}' })).status).toBe(200);
});

test('on ordinary traffic an over-long test ID counts as none: default-test, logged once', async () => {
  const { harness, warnings } = setup({ limits: { maxTestIdLength: 8 } });
  expect(harness.testIdFrom({ 'x-harness-test-id': 'short' })).toBe('short');
  expect(harness.testIdFrom({ 'x-harness-test-id': 'much-too-long' })).toBe('default-test');
  expect(harness.testIdFrom(new Headers({ 'x-harness-test-id': 'also-far-too-long' }))).toBe('default-test');
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/13 characters, over the limit of 8 \(limits\.maxTestIdLength\), so it runs as "default-test"/);
});

test('an outgoing call\'s own over-long test-ID header is ignored in favour of the request\'s test', async () => {
  const { harness } = setup({ limits: { maxTestIdLength: 8 } });
  await harness.switchScenario('inbound', 'premium');
  await harness.start();
  try {
    const who = (testId: string) => harness.run('inbound', async () => (await fetch('https://api.x.test/who', { headers: { 'x-harness-test-id': testId } })).text());
    expect(await who('own-id')).toBe('default');
    expect(await who('much-too-long')).toBe('premium');
  } finally {
    await harness.stop();
  }
});

test('the programmatic API refuses an over-long test ID with INVALID_TEST_ID', async () => {
  const { harness } = setup({ limits: { maxTestIdLength: 8 } });
  for (const call of [() => harness.switchScenario('123456789', 'premium'), () => harness.getState('123456789'), () => harness.getActiveScenario('123456789'), () => harness.endTest('123456789')]) {
    const error = await call().catch((e: unknown) => e);
    expect(isHarnessError(error) && error.code).toBe('INVALID_TEST_ID');
    expect((error as Error).message).toMatch(/at most 8 characters \(limits\.maxTestIdLength\)/);
  }
});

test.each([
  [{ maxBodyBytes: 0 }, /"limits\.maxBodyBytes" to be a positive whole number, instead got 0/],
  [{ maxBodyBytes: 1.5 }, /instead got 1\.5/],
  [{ maxTestIdLength: '256' }, /"limits\.maxTestIdLength" to be a positive whole number, instead got "256"/],
  [{ maxSessions: 5 }, /"limits\.maxSessions" is not a limit/],
  [{ maxTotalTestMockBytes: 0 }, /"limits\.maxTotalTestMockBytes" to be a positive whole number, instead got 0/],
  [{ maxStateBytes: '4MB' }, /"limits\.maxStateBytes" to be a positive whole number, instead got "4MB"/],
])('createHarness refuses the limits %j', (limits, message) => {
  expect(() => createHarness({ enabled: true, scenarios, limits: limits as never })).toThrow(message);
});
