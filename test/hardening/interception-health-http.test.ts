/**
 * Like interception-health-fetch.test.ts, for node:http: its own file, because freezing
 * http.request cannot be undone in this process.
 */
import http from 'node:http';
import { createHarness, isHarnessError } from 'scenario-harness';
import { expect, test } from 'vitest';

test('a frozen http.request fails start() naming it, and leaves fetch unpatched', async () => {
  const pristineFetch = globalThis.fetch;
  Object.defineProperty(http, 'request', { value: http.request, writable: false, configurable: false });
  const harness = createHarness({ enabled: true, scenarios: { default: { name: 'D', mocks: [] } } });
  const error = await harness.start().then(() => undefined, (e: unknown) => e);
  expect(isHarnessError(error) && error.code).toBe('INTERCEPTION_FAILED');
  expect((error as Error).message).toMatch(/http\.request cannot be replaced/);
  expect(globalThis.fetch).toBe(pristineFetch);
});

