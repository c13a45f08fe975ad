import { randomUUID } from 'node:crypto';
import { defineScenarios } from 'scenario-harness';
import { beforeEach, describe, expect, test } from 'vitest';
import type { ClientApp } from './client-app.js';
import type { Gate } from './gates.js';
import { useClientApp } from './use-client-app.js';

/** One generic HTTP client as the app's routes use it. */
export interface JsonClient {
  /** Make the call (a JSON body when `body` is given) and read a JSON reply; an HTTP error status is a reply, not a throw. */
  send(method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

/** A third-party API on a reserved name (RFC 2606): only the harness can answer it. */
const API = 'https://api.shop.example';

const scenarios = defineScenarios({
  default: {
    name: 'Shop API works',
    mocks: [
      { method: 'GET', url: `${API}/profile`, response: { body: { who: 'default' } } },
      { method: 'GET', url: `${API}/tickets/next`, sequence: { responses: [{ body: { ticket: 1 } }, { body: { ticket: 2 } }, { body: { ticket: 3 } }] } },
      {
        method: 'POST',
        url: `${API}/customers/:customer/orders`,
        match: { body: { items: [{ sku: 'A1', qty: 2 }], shipping: { country: { regex: { source: '^(NL|BE)$' } } } } },
        response: { status: 201, body: { id: 'ord-{{params.customer}}', country: '{{body.shipping.country}}', qty: '{{body.items.0.qty}}', items: '{{body.items}}' } },
        afterResponse: { setState: { 'orders[]': { customer: '{{params.customer}}', country: '{{body.shipping.country}}' }, 'last.qty': '{{body.items.0.qty}}' } },
      },
      { method: 'POST', url: `${API}/customers/:customer/orders`, response: { status: 422, body: { error: 'no mock for this order body' } } },
    ],
  },
  alice: { name: 'Alice', mocks: [{ method: 'GET', url: `${API}/profile`, response: { body: { who: 'alice' } } }] },
  bob: { name: 'Bob', mocks: [{ method: 'GET', url: `${API}/profile`, response: { body: { who: 'bob' } } }] },
});

/**
 * The five proofs for one generic HTTP client, through an Express app over real HTTP: parallel
 * test IDs, a sequence, JSON body matching with templates, setState read back over HTTP, and an
 * unanswered call that fails with the harness's message naming the test ID.
 */
export function defineHttpClientSuite(name: string, client: JsonClient): void {
  describe(name, () => {
    const getApp = useClientApp({
      scenarios,
      routes(express, gates) {
        express.get('/profile-twice/:gate', async (req, res) => {
          const first = await client.send('GET', `${API}/profile`);
          await gates.pass(req.params.gate);
          const second = await client.send('GET', `${API}/profile`);
          res.json({ first: first.body, second: second.body });
        });
        express.get('/next-ticket', async (_req, res) => void res.json((await client.send('GET', `${API}/tickets/next`)).body));
        express.post('/checkout/:customer', async (req, res) => {
          const reply = await client.send('POST', `${API}/customers/${req.params.customer}/orders`, req.body);
          res.status(reply.status).json(reply.body);
        });
        express.get('/unmocked', async (_req, res) => void res.json((await client.send('GET', `${API}/not/mocked?page=2`)).body));
      },
    });
    let app: ClientApp<typeof scenarios>;
    beforeEach(() => void (app = getApp()));

    test('three test IDs in flight at once each get their own scenario, before and after the others\' calls', async () => {
      const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
      await app.switchScenario(a, 'alice');
      await app.switchScenario(b, 'bob');
      const [gateA, gateB, gateC] = [a, b, c].map((id) => app.gates.gate(id)) as [Gate, Gate, Gate];
      try {
        // All three made their first call before any makes its second; they leave in another order.
        const requestA = app.call(a, `/profile-twice/${a}`);
        await gateA.arrived;
        const requestB = app.call(b, `/profile-twice/${b}`);
        await gateB.arrived;
        const requestC = app.call(c, `/profile-twice/${c}`);
        await gateC.arrived;
        gateB.release();
        expect(await requestB).toEqual({ status: 200, body: { first: { who: 'bob' }, second: { who: 'bob' } } });
        gateC.release();
        expect(await requestC).toEqual({ status: 200, body: { first: { who: 'default' }, second: { who: 'default' } } });
        gateA.release();
        expect(await requestA).toEqual({ status: 200, body: { first: { who: 'alice' }, second: { who: 'alice' } } });
      } finally {
        [gateA, gateB, gateC].forEach((gate) => gate.release());
      }
    });

    test('a sequence advances per test ID and repeats its last response', async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      const ticket = async (testId: string) => (await app.call(testId, '/next-ticket')).body;
      expect(await ticket(a)).toEqual({ ticket: 1 });
      expect(await ticket(b)).toEqual({ ticket: 1 });
      expect(await ticket(a)).toEqual({ ticket: 2 });
      expect(await ticket(a)).toEqual({ ticket: 3 });
      expect(await ticket(a)).toEqual({ ticket: 3 });
      expect(await ticket(b)).toEqual({ ticket: 2 });
    });

    test('the JSON body the client sends is matched, and feeds path and body templates', async () => {
      const testId = randomUUID();
      const order = { items: [{ sku: 'A1', qty: 2, note: 'gift' }], shipping: { country: 'NL', street: 'Main 1' } };
      expect(await app.call(testId, '/checkout/c-42', { body: order })).toEqual({
        status: 201,
        body: { id: 'ord-c-42', country: 'NL', qty: 2, items: [{ sku: 'A1', qty: 2, note: 'gift' }] },
      });
      // Another quantity, another country: the body-matching mock does not answer, the plain one does.
      expect(await app.call(testId, '/checkout/c-42', { body: { ...order, items: [{ sku: 'A1', qty: 3 }] } })).toMatchObject({ status: 422 });
      expect(await app.call(testId, '/checkout/c-42', { body: { ...order, shipping: { country: 'DE' } } })).toMatchObject({ status: 422 });
    });

    test('afterResponse.setState is read back through GET /__harness__/state, per test ID', async () => {
      const [testId, other] = [randomUUID(), randomUUID()];
      const order = { items: [{ sku: 'A1', qty: 2 }], shipping: { country: 'BE' } };
      expect((await app.call(testId, '/checkout/c-1', { body: order })).status).toBe(201);
      expect((await app.call(testId, '/checkout/c-2', { body: { ...order, shipping: { country: 'NL' } } })).status).toBe(201);
      expect(await app.state(testId)).toEqual({
        status: 200,
        body: { testId, state: { orders: [{ customer: 'c-1', country: 'BE' }, { customer: 'c-2', country: 'NL' }], 'last.qty': 2 } },
      });
      expect(await app.state(other)).toEqual({ status: 200, body: { testId: other, state: {} } });
    });

    test('an unanswered call fails in the app with an error that names scenario-harness, the call and the test ID', async () => {
      const testId = randomUUID();
      const reply = await app.call(testId, '/unmocked');
      expect(reply.status).toBe(502);
      const messages = (reply.body as { errors: string[] }).errors;
      expect(messages.find((message) => message.includes('[scenario-harness] No mock answers GET https://api.shop.example/not/mocked'))).toContain(`for test "${testId}"`);
      expect(app.logs.join('\n')).toContain(`No mock answers GET https://api.shop.example/not/mocked for test "${testId}"`);
    });
  });
}
