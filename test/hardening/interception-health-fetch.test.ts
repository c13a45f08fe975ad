/**
 * Interception that cannot be installed must stop `start()`, never leave calls going to the real
 * network. These tests make globalThis.fetch unpatchable, which cannot be undone: they live in a
 * file of their own (vitest runs every file in its own process) and run in order.
 */
import http from 'node:http';
import { createHarness, isHarnessError } from 'scenario-harness';
import { expect, test } from 'vitest';

const harness = createHarness({ enabled: true, scenarios: { default: { name: 'D', mocks: [{ url: 'https://api.x.test/a', response: { body: 'mocked' } }] } } });
const pristine = { fetch: globalThis.fetch, request: http.request, get: http.get, ClientRequest: http.ClientRequest };
const untouched = () => expect({ fetch: globalThis.fetch, request: http.request, get: http.get, ClientRequest: http.ClientRequest }).toEqual(pristine);

async function startError(): Promise<Error & { code?: string }> {
  const error = await harness.start().then(() => undefined, (e: unknown) => e);
  expect(isHarnessError(error)).toBe(true);
  return error as Error & { code?: string };
}

test('a writable but non-configurable fetch is still patched, answered from mocks, and restored exactly at stop()', async () => {
  Object.defineProperty(globalThis, 'fetch', { value: pristine.fetch, writable: true, configurable: false });
  await harness.start();
  expect(globalThis.fetch).not.toBe(pristine.fetch);
  expect(await (await fetch('https://api.x.test/a')).text()).toBe('mocked');
  await harness.stop();
  untouched();
  expect(Object.getOwnPropertyDescriptor(globalThis, 'fetch')).toMatchObject({ writable: true, configurable: false });
});

test('a read-only, non-configurable fetch fails start() before anything is patched, and every retry fails too', async () => {
  Object.defineProperty(globalThis, 'fetch', { writable: false });
  for (let attempt = 0; attempt < 2; attempt++) {
    const error = await startError();
    expect(error.message).toMatch(/^Failed to start intercepting outgoing calls: globalThis\.fetch cannot be replaced \(read-only and non-configurable\)\./);
    expect(error.message).toMatch(/start the harness before it runs, or leave these globals writable/);
    untouched();
  }
  await harness.stop(); // stopping a harness that never started is harmless
});
