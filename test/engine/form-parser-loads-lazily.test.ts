import { createRequire } from 'node:module';
import { expect, test } from 'vitest';
import { json, startHarness } from './with-harness.js';

const loadedModules = createRequire(import.meta.url).cache;
const qsLoaded = () => Object.keys(loadedModules).some((path) => /[\\/]node_modules[\\/]qs[\\/]/.test(path));

test('qs loads with the first form body a mock reads, not before', async () => {
  const { asTest } = await startHarness({
    default: { name: 'D', mocks: [{ method: 'POST' as const, url: 'https://api.x.test/echo', response: { body: { got: '{{body.a}}' } } }] },
  });
  await asTest(undefined, async () => {
    expect((await json('https://api.x.test/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":"json"}' })).body).toEqual({ got: 'json' });
    expect(qsLoaded()).toBe(false);
    expect((await json('https://api.x.test/echo', { method: 'POST', body: new URLSearchParams({ a: 'form' }) })).body).toEqual({ got: 'form' });
    expect(qsLoaded()).toBe(true);
  });
});
