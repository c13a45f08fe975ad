import { compileMock } from '../engine/compile-mock.js';
import { createMockIndex, type MockIndex } from '../engine/mock-index.js';
import { TEST_MOCK_KEY_PREFIX } from '../store/session-store.js';
import type { Mock } from '../types.js';

/**
 * A test's own mocks (oldest first, as a store keeps them), compiled into the layer tried
 * before its scenario. Inside it the newest mock wins a tie, as a later `use()` overrides an
 * earlier one; each keeps the sequence key of its place in the order they were added, so
 * adding more leaves the positions of those before them alone.
 */
export function compileTestMocks(mocks: readonly Mock[]): MockIndex {
  const last = mocks.length - 1;
  return createMockIndex(mocks.map((mock, i) => compileMock(mock, last - i, `${TEST_MOCK_KEY_PREFIX}${i}`, { scenarioId: '', own: true })));
}
