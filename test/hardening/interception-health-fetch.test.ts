/**
 * Interception that cannot be installed must stop `start()`, never leave calls going to the real
 * network. These tests make globalThis.fetch unpatchable, which cannot be undone: they live in a
 * file of their own (vitest runs every file in its own process) and run in order.
 */
import http from 'node:http';
import { createHarness, isHarnessError } from 'scenario-harness';
import { expect, test, vi } from 'vitest';

const harness = createHarness({ enabled: true, scenarios: { default: { name: 'D', mocks: [{ url: 'https://api.x.test/a', response: { body: 'mocked' } }] } } });
const pristine = { fetch: globalThis.fetch, request: http.request, get: http.get, ClientRequest: http.ClientRequest };
const untouched = () => expect({ fetch: globalThis.fetch, request: http.request, get: http.get, ClientRequest: http.ClientRequest }).toEqual(pristine);

async function startError(): Promise<Error & { code?: string }> {
  const error = await harness.start().then(() => undefined, (e: unknown) => e);
  expect(isHarnessError(error)).toBe(true);
  return error as Error & { code?: string };
}

test('a fetch the interceptor declines to patch (non-configurable) fails start() and leaves nothing patched', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {}); // the interceptor's own complaint
  Object.defineProperty(globalThis, 'fetch', { value: pristine.fetch, writable: true, configurable: false });
  const error = await startError();
  expect(error.code).toBe('INTERCEPTION_FAILED');
  expect(error.message).toMatch(/^Failed to start intercepting outgoing calls: the fetch interceptor did not apply\. Outgoing calls would reach the real network, so the harness refuses to start\./);
  expect(error.message).toMatch(/nothing made them non-configurable/);
  untouched();
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
