import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import { startHarness } from './with-harness.js';

const API = 'https://api.x.test';
const steps = (...names: string[]) => names.map((body) => ({ body }));

const scenarios = {
  default: { name: 'D', mocks: [] },
  polling: {
    name: 'Polling',
    mocks: [
      { url: `${API}/last`, sequence: { responses: steps('one', 'two') } },
      { url: `${API}/cycle`, sequence: { responses: steps('a', 'b'), repeat: 'cycle' as const } },
      { url: `${API}/none`, sequence: { responses: steps('only once'), repeat: 'none' as const } },
      { url: `${API}/none`, response: { body: 'fallback after the sequence' } },
      { url: `${API}/other`, sequence: { responses: steps('other 1', 'other 2') } },
    ],
  },
};

const text = async (path: string) => (await fetch(`${API}${path}`)).text();

test('last repeats the last response, cycle starts over, none lets the next candidate answer', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest('polling', async () => {
    expect([await text('/last'), await text('/last'), await text('/last')]).toEqual(['one', 'two', 'two']);
    expect([await text('/cycle'), await text('/cycle'), await text('/cycle')]).toEqual(['a', 'b', 'a']);
    expect([await text('/none'), await text('/none')]).toEqual(['only once', 'fallback after the sequence']);
  });
});

test('positions belong to (test ID, mock): two sequences and two tests never share a counter', async () => {
  const { harness } = await startHarness(scenarios);
  const [a, b] = [randomUUID(), randomUUID()];
  await harness.switchScenario(a, 'polling');
  await harness.switchScenario(b, 'polling');
  expect(await harness.run(a, () => text('/last'))).toBe('one');
  expect(await harness.run(a, () => text('/other'))).toBe('other 1');
  expect(await harness.run(b, () => text('/last'))).toBe('one');
  expect(await harness.run(a, () => text('/last'))).toBe('two');
  expect(await harness.run(b, () => text('/other'))).toBe('other 1');
});

test('a switch, also to the active scenario, resets positions to 0', async () => {
  const { harness, asTest } = await startHarness(scenarios);
  await asTest('polling', async (testId) => {
    expect([await text('/last'), await text('/last')]).toEqual(['one', 'two']);
    await harness.switchScenario(testId, 'polling');
    expect(await text('/last')).toBe('one');
  });
});

test('setState merges keys, appends with key[], keeps types of whole templates, and dotted keys stay keys', async () => {
  const { harness, asTest } = await startHarness({
    default: {
      name: 'D',
      mocks: [
        {
          method: 'POST',
          url: `${API}/cart/:sku`,
          response: { status: 201 },
          afterResponse: { setState: { 'cart.count': '{{body.qty}}', 'cart.items[]': '{{params.sku}}', 'cart.last': { sku: '{{params.sku}}', qty: '{{body.qty}}' }, 'cart.note': 'added {{params.sku}}' } },
        },
        { url: `${API}/cart`, response: { body: { count: '{{state.cart.count}}', items: '{{state.cart.items}}' } } },
      ],
    },
  });
  await asTest(undefined, async (testId) => {
    const add = (sku: string, qty: number) => fetch(`${API}/cart/${sku}`, { method: 'POST', body: JSON.stringify({ qty }) });
    await add('apple', 1);
    await add('pear', 2);
    expect(await harness.getState(testId)).toEqual({ 'cart.count': 2, 'cart.items': ['apple', 'pear'], 'cart.last': { sku: 'pear', qty: 2 }, 'cart.note': 'added pear' });
    expect(await (await fetch(`${API}/cart`)).json()).toEqual({ count: 2, items: ['apple', 'pear'] });
  });
});

test('state written by one call is visible to the very next call of the same test', async () => {
  const { asTest } = await startHarness({
    default: {
      name: 'D',
      mocks: [
        { method: 'POST', url: `${API}/login`, response: { status: 204 }, afterResponse: { setState: { loggedIn: true } } },
        { url: `${API}/me`, response: { status: 401 } },
        { url: `${API}/me`, match: { state: { loggedIn: true } }, response: { body: 'welcome' } },
      ],
    },
  });
  await asTest(undefined, async () => {
    expect((await fetch(`${API}/me`)).status).toBe(401);
    await fetch(`${API}/login`, { method: 'POST' });
    expect(await text('/me')).toBe('welcome');
  });
  await asTest(undefined, async () => expect((await fetch(`${API}/me`)).status).toBe(401));
});
