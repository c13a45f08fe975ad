import Stripe from 'stripe';
import { defineScenarios } from 'scenario-harness';
import { expect, test } from 'vitest';
import { json, startHarness } from './with-harness.js';

// A string matcher written on the whole body (not on a field) tests the body's text, whatever
// its content type: form and JSON bodies are parsed for field matchers, not for this one.
const scenarios = defineScenarios({
  default: {
    name: 'Raw body matchers',
    mocks: [
      { method: 'POST', url: 'https://api.stripe.com/v1/charges', match: { body: { contains: 'currency=gbp' } }, response: { body: { id: 'ch_gbp' } } },
      { method: 'POST', url: 'https://api.stripe.com/v1/charges', response: { body: { id: 'ch_other' } } },
      { method: 'POST', url: 'https://api.x.test/orders', match: { body: /"priority":\s*"high"/ }, response: { body: { queue: 'fast' } } },
      { method: 'POST', url: 'https://api.x.test/orders', response: { body: { queue: 'normal' } } },
      { method: 'POST', url: 'https://api.x.test/notes', match: { body: { startsWith: 'urgent:' } }, response: { body: { flagged: true } } },
    ],
  },
});

test('{ contains } on match.body matches a form body\'s text (the Stripe SDK\'s charge in pounds)', async () => {
  const { asTest } = await startHarness(scenarios);
  const stripe = new Stripe('sk_test_fake_key_for_the_harness', { maxNetworkRetries: 0 });
  await asTest(undefined, async () => {
    expect((await stripe.charges.create({ amount: 5000, currency: 'gbp', source: 'tok_visa' })).id).toBe('ch_gbp');
    expect((await stripe.charges.create({ amount: 5000, currency: 'usd', source: 'tok_visa' })).id).toBe('ch_other');
    const form = await json('https://api.stripe.com/v1/charges', { method: 'POST', body: new URLSearchParams({ amount: '1', currency: 'gbp' }) });
    expect(form.body).toEqual({ id: 'ch_gbp' });
  });
});

test('a RegExp on match.body matches a JSON body\'s text, and a string matcher a text body', async () => {
  const { asTest, logs } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    const order = (body: unknown) => json('https://api.x.test/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await order({ id: 1, priority: 'high' })).body).toEqual({ queue: 'fast' });
    expect((await order({ id: 2, priority: 'low' })).body).toEqual({ queue: 'normal' });
    expect((await json('https://api.x.test/notes', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'urgent: call back' })).body).toEqual({ flagged: true });
    const refused = await fetch('https://api.x.test/notes', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'later' }).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
  });
  expect(logs.join('\n')).toContain('POST https://api.x.test/notes (default#4): match.body: expected a text starting with "urgent:", received "later"');
});

// docs/recipes.md, "GraphQL operations that share a name": the same mocks.
const sharedName = defineScenarios({
  default: {
    name: 'Two GetUser queries',
    mocks: [
      // The header's query asks for the avatar; the settings page's for the email.
      { url: 'https://api.x.test/graphql', match: { graphql: { operationName: 'GetUser' }, body: { query: { contains: 'avatarUrl' } } }, response: { body: { data: { user: { avatarUrl: 'https://img.test/ada.png' } } } } },
      { url: 'https://api.x.test/graphql', match: { graphql: { operationName: 'GetUser', variables: { withEmail: true } } }, response: { body: { data: { user: { email: 'ada@example.com' } } } } },
    ],
  },
});

test('two GraphQL operations with one name are told apart by their query text and variables', async () => {
  const { asTest } = await startHarness(sharedName);
  const gql = (query: string, variables: object) => json('https://api.x.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, operationName: 'GetUser', variables }) });
  await asTest(undefined, async () => {
    expect((await gql('query GetUser($id: ID!) { user(id: $id) { avatarUrl } }', { id: '1' })).body).toEqual({ data: { user: { avatarUrl: 'https://img.test/ada.png' } } });
    expect((await gql('query GetUser($id: ID!, $withEmail: Boolean!) { user(id: $id) { email @include(if: $withEmail) } }', { id: '1', withEmail: true })).body).toEqual({ data: { user: { email: 'ada@example.com' } } });
  });
});
