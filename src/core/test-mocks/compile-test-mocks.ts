import { compileMock } from '../engine/compile-mock.js';
import { createMockIndex, type MockIndex } from '../engine/mock-index.js';
import { httpMocksOf } from '../engine/sockets/own-socket-entry.js';
import { TEST_MOCK_KEY_PREFIX } from '../store/session-store.js';
import type { Mock } from '../types.js';

/**
 * A test's own mocks (oldest first, as a store keeps them), compiled into the layer tried
 * before its scenario. Inside it the newest mock wins a tie, as a later `use()` overrides an
 * earlier one; each keeps the sequence key of its place in the order they were added, so
 * adding more leaves the positions of those before them alone.
 */
export function compileTestMocks(list: readonly Mock[]): MockIndex {
  // Its own socket mocks share the list (own-socket-entry.ts); each mock keeps the key of its place in it.
  const mocks = httpMocksOf(list);
  const last = mocks.length - 1;
  return createMockIndex(mocks.map(({ mock, index }, i) => compileMock(mock, last - i, `${TEST_MOCK_KEY_PREFIX}${index}`, { scenarioId: '', own: true })));
}
