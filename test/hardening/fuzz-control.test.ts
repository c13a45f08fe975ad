import fc from 'fast-check';
import { METHODS, request as httpRequest } from 'node:http';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { APP_KINDS, startApp, type App } from './apps.js';

const scenarios = { default: { name: 'Default', mocks: [] }, premium: { name: 'Premium', mocks: [], variants: { gold: { mocks: [] } } } };
const errors: unknown[] = [];
const harness = createHarness({ enabled: true, scenarios, logger: { warn: () => {}, error: (_m, e) => errors.push(e) } });

const CONTROL_PATHS = ['/__scenario__', '/__harness__/state'];
// Fetch refuses CONNECT, TRACE and TRACK outright; the HTTP test below sends them.
const method = fc.oneof(
  fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'get', 'post'),
  fc.stringMatching(/^[A-Z][A-Z-]{0,11}$/).filter((m) => !['CONNECT', 'TRACE', 'TRACK'].includes(m)),
);
const path = fc.oneof(
  fc.constantFrom(...CONTROL_PATHS),
  fc.tuple(fc.constantFrom(...CONTROL_PATHS), fc.stringMatching(/^[a-z0-9=&%._~-]{0,20}$/)).map(([p, q]) => `${p}?${q}`),
);
const headerValue = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 200, maxLength: 600 }),
  fc.constantFrom('', 'application/json', 'text/plain', 'multipart/form-data; boundary=x', '99999999', '-1', 'abc', 'x'.repeat(300)),
).map((value) => value.replace(/[\r\n\0]/g, ' ').trim());
const headers = fc.array(fc.tuple(fc.constantFrom('x-harness-test-id', 'content-type', 'content-length', 'accept', 'x-other'), headerValue), { maxLength: 6 });
const body = fc.oneof(
  fc.constant(undefined),
  fc.json(),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.record({ scenario: fc.oneof(fc.constantFrom('premium', 'default', '', 'nope', '__proto__'), fc.jsonValue()), variant: fc.option(fc.jsonValue(), { nil: undefined }) }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
  fc.integer({ min: 60_000, max: 80_000 }).map((n) => `{"scenario":"${'x'.repeat(n)}"}`),
);

/** What every answer of a control endpoint must be: not a 5xx, JSON, and an `error` string on a 4xx. */
async function expectWellFormed(status: number, contentType: string | null | undefined, text: string) {
  expect(status).toBeLessThan(500);
  expect(contentType).toContain('application/json');
  const parsed = JSON.parse(text) as Record<string, unknown>;
  if (status >= 400) expect(parsed.error).toEqual(expect.any(String));
}

test('any method, control path, headers and body get a non-5xx JSON answer from handle()', async () => {
  await fc.assert(
    fc.asyncProperty(method, path, headers, body, async (m, p, h, b) => {
      const init: RequestInit = { method: m, headers: h };
      if (!['GET', 'HEAD'].includes(m.toUpperCase())) init.body = b;
      const response = await harness.handle(new Request(`http://app.test${p}`, init));
      expect(response).not.toBeNull();
      await expectWellFormed(response!.status, response!.headers.get('content-type'), await response!.text());
    }),
    { numRuns: 300 },
  );
  expect(errors).toEqual([]);
});

describe.each(APP_KINDS)('over HTTP (%s)', (kind) => {
  let app: App;
  beforeAll(async () => {
    app = await startApp(kind, harness);
  });
  afterAll(() => app?.close());

  const send = (m: string, p: string, h: [string, string][], b: string | undefined) =>
    new Promise<{ status: number; contentType: string | undefined; text: string }>((resolve, reject) => {
      // Node's client sends a DELETE or OPTIONS body without framing unless told its length.
      const framing = b === undefined ? {} : { 'content-length': String(Buffer.byteLength(b)) };
      const req = httpRequest({ host: '127.0.0.1', port: app.port, method: m, path: p, headers: { ...Object.fromEntries(h.filter(([name]) => name !== 'content-length')), ...framing } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, contentType: res.headers['content-type'], text }));
      });
      req.on('error', reject);
      req.end(b);
    });

  test('any method, control path, headers and body get a non-5xx JSON answer', async () => {
    // Node's parser answers unknown methods and a TRACE with a body itself (400, no body), before any app code runs.
    const httpMethod = fc.constantFrom(...METHODS.filter((m) => m !== 'CONNECT'));
    await fc.assert(
      fc.asyncProperty(httpMethod, path, headers, body, async (m, p, h, b) => {
        const response = await send(m, p, h, m === 'HEAD' || m === 'TRACE' ? undefined : b);
        if (m === 'HEAD') return void expect(response.status).toBeLessThan(500);
        await expectWellFormed(response.status, response.contentType, response.text);
      }),
      { numRuns: 60 },
    );
    expect(errors).toEqual([]);
  });
});
