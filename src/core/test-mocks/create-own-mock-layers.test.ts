import { expect, test } from 'vitest';
import { createMemoryStore } from '../store/memory-store.js';
import { createOwnMockLayers } from './create-own-mock-layers.js';

test('a session with mocks of its own in a store that cannot read them fails the call by name, instead of answering from the scenario', async () => {
  const { readMocks: _cannot, ...store } = createMemoryStore();
  const layers = createOwnMockLayers(store);
  await expect(layers.layers('t-1', 'v1', [])).rejects.toMatchObject({
    code: 'STORE_UNAVAILABLE',
    message: expect.stringContaining('Failed to read the mocks test "t-1" added of its own: its session has some, but this process\'s session store has no readMocks method.'),
  });
});

test('mocks removed since the session was read: the call is answered from the scenario alone', async () => {
  const store = createMemoryStore();
  const base = [] as const;
  expect(await createOwnMockLayers(store).layers('t-1', 'gone', base)).toBe(base);
});
