import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';

const API = 'https://api.x.test';
const failures: string[] = [];
const harness = createHarness({
  enabled: true,
  unhandled: 'error',
  logger: { warn: () => {}, error: (message) => failures.push(message) },
  scenarios: {
    default: {
      name: 'D',
      mocks: [
        {
          method: 'POST',
          url: `${API}/orders/:id`,
          match: { body: { customer: { tier: { regex: { source: '^(gold|silver)$', flags: 'i' } } }, items: [{ sku: { startsWith: 'A' } }] } },
          response: { status: 201, body: { id: '{{params.id}}', tier: '{{body.customer.tier}}', first: '{{body.items.0}}', all: '{{body}}', q: '{{query}}' } },
          afterResponse: { setState: { 'orders[]': '{{body}}', last: '{{body.customer}}', '__proto__': '{{body.__proto__}}' } },
        },
        {
          url: `${API}/orders/:id`,
          response: { headers: { 'x-echo': 'id={{params.id}} h={{headers.x-a}} s={{state.last.tier}}' }, body: '{{state}}' },
          afterResponse: { setState: { 'seen[]': '{{query.q}}' } },
        },
      ],
    },
  },
});
beforeAll(() => harness.start());
afterAll(() => harness.stop());

test('any JSON body, query and header values get an answer from the mocks, never an internal failure', async () => {
  const text = fc.string({ unit: 'grapheme', maxLength: 12 });
  const headerValue = fc.string({ unit: 'grapheme-ascii', maxLength: 12 }).map((v) => v.replace(/[\r\n\0]/g, '').trim());
  const body = fc.oneof(
    fc.json(),
    fc.string({ maxLength: 30 }),
    fc.record({ customer: fc.record({ tier: fc.oneof(fc.constantFrom('gold', 'SILVER', 'bronze'), fc.jsonValue()) }), items: fc.array(fc.record({ sku: fc.oneof(text, fc.jsonValue()) }), { maxLength: 2 }) }).map((v) => JSON.stringify(v)),
    fc.constant('{"__proto__":{"polluted":true},"customer":{"tier":"gold"},"items":[{"sku":"A1"}]}'),
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'), text, text, headerValue, body, async (method, id, q, header, payload) => {
      // "." and ".." are dot segments: URL parsing removes them, so the path has no :id to match.
      const url = `${API}/orders/${encodeURIComponent(id === '' || id === '.' || id === '..' ? 'x' : id)}?q=${encodeURIComponent(q)}`;
      const init: RequestInit = { method, headers: { 'x-a': header, 'content-type': 'application/json' }, body: method === 'GET' ? undefined : payload };
      const response = await harness.run(randomUUID(), () => fetch(url, init)).catch((error: unknown) => {
        throw new Error(`${(error as Error).message}; logged: ${failures.join(' | ')}`);
      });
      expect([200, 201]).toContain(response.status);
      await response.text();
    }),
    { numRuns: 150 },
  );
  expect(failures).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});
