/**
 * The synchronous path: a plain mock is answered without awaiting anything (the dispatcher
 * writes it before dispatch() returns, as undici's MockAgent does), while everything that
 * needs the asynchronous path (sequences, setState, body matching, a store that is not the
 * memory store itself) still answers exactly as before.
 */
import { createMemoryStore, type SessionStore } from 'scenario-harness';
import { request, type Dispatcher } from 'undici';
import { expect, test } from 'vitest';
import { startHarness } from '../engine/with-harness.js';

const scenarios = {
  default: { name: 'Default', mocks: [] },
  plain: {
    name: 'Plain',
    mocks: [
      { method: 'GET' as const, url: 'https://api.now.test/item', response: { body: { plain: true } } },
      { method: 'GET' as const, url: 'https://api.now.test/users/:id', response: { body: { id: '{{params.id}}' } } },
      { method: 'GET' as const, url: 'https://api.now.test/steps', sequence: { responses: [{ body: { step: 1 } }, { body: { step: 2 } }] } },
      { method: 'GET' as const, url: 'https://api.now.test/login', response: { body: { ok: true } }, afterResponse: { setState: { loggedIn: true } } },
      { method: 'GET' as const, url: 'https://api.now.test/me', match: { state: { loggedIn: true } }, response: { body: { me: 'in' } } },
      { method: 'GET' as const, url: 'https://api.now.test/me', response: { body: { me: 'out' } } },
      { method: 'POST' as const, url: 'https://api.now.test/pay', match: { body: { amount: 5 } }, response: { status: 201, body: { paid: '{{body.amount}}' } } },
    ],
  },
};

const legacyHandler = (events: unknown[], done: () => void, fail: (error: Error) => void) =>
  ({
    onConnect: () => events.push('connect'),
    onHeaders: (status: number) => (events.push(status), true),
    onData: (chunk: Buffer) => (events.push(chunk.toString()), true),
    onComplete: () => (events.push('complete'), done()),
    onError: fail,
  }) as unknown as Dispatcher.DispatchHandler;

test('a plain mock is written to an undici handler before dispatch() returns; a sequence still answers in order', async () => {
  const { asTest } = await startHarness(scenarios);
  const dispatcher = (globalThis as Record<symbol, Dispatcher>)[Symbol.for('undici.globalDispatcher.1')]!;
  await asTest('plain', async () => {
    const events: unknown[] = [];
    let completed = false;
    dispatcher.dispatch({ origin: 'https://api.now.test', path: '/item', method: 'GET', headers: [] }, legacyHandler(events, () => (completed = true), (error) => events.push(error)));
    expect(completed).toBe(true);
    expect(events).toEqual(['connect', 200, '{"plain":true}', 'complete']);

    const steps: unknown[] = [];
    for (let i = 0; i < 3; i++) steps.push(await (await request('https://api.now.test/steps')).body.json());
    expect(steps).toEqual([{ step: 1 }, { step: 2 }, { step: 2 }]);
  });
});

test('templates, setState and body matching give the same answers through fetch and undici', async () => {
  const { asTest, harness } = await startHarness(scenarios);
  await asTest('plain', async (testId) => {
    expect(await (await fetch('https://api.now.test/users/42')).json()).toEqual({ id: '42' });
    expect(await (await request('https://api.now.test/users/7')).body.json()).toEqual({ id: '7' });
    expect(await (await fetch('https://api.now.test/me')).json()).toEqual({ me: 'out' });
    await (await fetch('https://api.now.test/login')).json();
    expect(await (await request('https://api.now.test/me')).body.json()).toEqual({ me: 'in' });
    const paid = await fetch('https://api.now.test/pay', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount: 5 }) });
    expect([paid.status, await paid.json()]).toEqual([201, { paid: 5 }]);
    const calls = await harness.getCalls(testId);
    expect(calls.map((call) => `${call.method} ${new URL(call.url).pathname} ${call.status}`)).toEqual([
      'GET /users/42 200',
      'GET /users/7 200',
      'GET /me 200',
      'GET /login 200',
      'GET /me 200',
      'POST /pay 201',
    ]);
    expect(calls.at(-1)?.requestBody).toEqual({ amount: 5 });
  });
});

test('a mocked fetch Response carries the call URL, and so does its clone', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest('plain', async () => {
    const response = await fetch('https://api.now.test/item');
    expect(response).toBeInstanceOf(Response);
    expect([response.url, response.clone().url]).toEqual(['https://api.now.test/item', 'https://api.now.test/item']);
    expect(await response.clone().json()).toEqual({ plain: true });
    expect(await response.json()).toEqual({ plain: true });
  });
});

test('a store that wraps the memory store is read through its own read(), never around it', async () => {
  const memory = createMemoryStore();
  const reads: string[] = [];
  const store: SessionStore = { ...memory, read: (testId) => (reads.push(testId), memory.read(testId)) };
  const { asTest } = await startHarness(scenarios, { store });
  await asTest('plain', async (testId) => {
    expect(await (await fetch('https://api.now.test/item')).json()).toEqual({ plain: true });
    expect(await (await request('https://api.now.test/item')).body.json()).toEqual({ plain: true });
    expect(reads.filter((id) => id === testId)).toHaveLength(2);
  });
});

test('an undici path that starts with // stays on the call\'s own host', async () => {
  const { asTest } = await startHarness({
    default: { name: 'Default', mocks: [] },
    other: { name: 'Other host', mocks: [{ url: 'https://other.now.test/x', response: { body: { host: 'other' } } }, { url: 'https://api.now.test//other.now.test/x', response: { body: { host: 'api' } } }] },
  });
  await asTest('other', async () => {
    expect(await (await request('https://api.now.test//other.now.test/x')).body.json()).toEqual({ host: 'api' });
  });
});
