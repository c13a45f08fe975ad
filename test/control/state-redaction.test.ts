/**
 * Issue 23: `setState: { x: '{{headers.authorization}}' }` copied a raw token into state, and the
 * state endpoint (which the inspector shows) handed it to anyone who asked, while the journal
 * redacted the same header. The state endpoint now redacts the keys filled from secret headers,
 * by the journal's rule; templates and `harness.getState()` still read the real value.
 */
import { randomUUID } from 'node:crypto';
import { createHarness, type HarnessOptions } from 'scenario-harness';
import { expect, test } from 'vitest';

const PARTNER = 'https://api.partner.example';
const SCENARIOS = {
  default: {
    name: 'Login, then a call that forwards the token',
    mocks: [
      {
        method: 'POST',
        url: `${PARTNER}/login`,
        response: { status: 204 },
        afterResponse: {
          setState: {
            auth: '{{headers.authorization}}',
            custom: 'key={{headers.x-shop-key}}',
            plan: '{{body.plan}}',
          },
        },
      },
      {
        method: 'GET',
        url: `${PARTNER}/me`,
        response: { body: { forwarded: '{{state.auth}}', custom: '{{state.custom}}' } },
        // A copy of a copied token is a token too.
        afterResponse: { setState: { copy: { of: '{{state.auth}}' } } },
      },
    ],
  },
} satisfies HarnessOptions['scenarios'];

/** A started harness, one login as a fresh test, and what the state endpoint, the templates and getState() then show. */
async function afterLogin(journal: HarnessOptions['journal']) {
  const harness = createHarness({ enabled: true, announce: false, unhandled: 'error', journal, logger: { info() {}, warn() {}, error() {} }, scenarios: SCENARIOS });
  await harness.start();
  try {
    const testId = randomUUID();
    const me = await harness.run(testId, async () => {
      await fetch(`${PARTNER}/login`, { method: 'POST', headers: { authorization: 'Bearer tok_live_123', 'x-shop-key': 'shop_456', 'content-type': 'application/json' }, body: '{"plan":"pro"}' });
      return (await fetch(`${PARTNER}/me`)).json();
    });
    const answer = await harness.handle(new Request('http://127.0.0.1/__harness__/state', { headers: { 'x-harness-test-id': testId } }));
    return { endpoint: ((await answer!.json()) as { state: unknown }).state, me, inProcess: await harness.getState(testId) };
  } finally {
    await harness.stop();
  }
}

test('the state endpoint redacts values taken from secret headers; templates and getState() keep them', async () => {
  const { endpoint, me, inProcess } = await afterLogin({ redactHeaders: ['x-shop-key'] });
  expect(endpoint).toEqual({ auth: '[redacted]', copy: '[redacted]', custom: '[redacted]', plan: 'pro' });
  expect(me).toEqual({ forwarded: 'Bearer tok_live_123', custom: 'key=shop_456' });
  expect(inProcess).toEqual({ auth: 'Bearer tok_live_123', copy: { of: 'Bearer tok_live_123' }, custom: 'key=shop_456', plan: 'pro' });
});

test('a header the journal does not redact stays readable in the state endpoint', async () => {
  const { endpoint } = await afterLogin(undefined);
  expect(endpoint).toEqual({ auth: '[redacted]', copy: '[redacted]', custom: 'key=shop_456', plan: 'pro' });
});

test('journal.redactHeaders: false shows state as stored, as the journal then shows headers', async () => {
  const { endpoint } = await afterLogin({ redactHeaders: false });
  expect(endpoint).toEqual({ auth: 'Bearer tok_live_123', copy: { of: 'Bearer tok_live_123' }, custom: 'key=shop_456', plan: 'pro' });
});
