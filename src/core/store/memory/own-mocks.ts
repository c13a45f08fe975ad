import type { Mock } from '../../types.js';
import { TEST_MOCK_KEY_PREFIX, type AddMocksResult, type SessionStore, type TestMockLimits } from '../session-store.js';
import { touch } from './sessions.js';
import type { MemoryStoreState } from './store-state.js';

export type OwnMockMethods = Required<Pick<SessionStore, 'addMocks' | 'readMocks' | 'resetMocks'>>;

/** The mocks a test adds for itself, bounded per test and, together, store-wide (`mockBytes`). */
export function ownMockMethods(state: MemoryStoreState): OwnMockMethods {
  return {
    async addMocks(testId, mocks: readonly Mock[], bytes: number, { maxMocks, maxBytes, maxTotalBytes = Infinity }: TestMockLimits): Promise<AddMocksResult> {
      const session = touch(state, testId, true);
      const held = session.own ?? { version: '', mocks: [], bytes: 0 };
      // Nothing to add changes nothing (a test without mocks keeps its fast path).
      if (mocks.length === 0) return { added: true, count: held.mocks.length, version: held.version };
      if (held.mocks.length + mocks.length > maxMocks || held.bytes + bytes > maxBytes) return { added: false, count: held.mocks.length, bytes: held.bytes };
      if (state.mockBytes + bytes > maxTotalBytes) return { added: false, count: held.mocks.length, bytes: held.bytes, totalBytes: state.mockBytes };
      // Versions share the generations' counter: unique within the store, so a cached compile of an ended test's mocks never answers for a new one.
      session.own = { version: `m${++state.generations}`, mocks: [...held.mocks, ...mocks], bytes: held.bytes + bytes };
      state.mockBytes += bytes;
      return { added: true, count: session.own.mocks.length, version: session.own.version };
    },
    async readMocks(testId) {
      const own = touch(state, testId, false)?.own;
      return own === undefined ? undefined : { version: own.version, mocks: own.mocks };
    },
    async resetMocks(testId) {
      const session = touch(state, testId, false);
      if (session === undefined) return;
      if (session.own !== undefined) state.mockBytes -= session.own.bytes;
      session.own = undefined;
      // Their positions go with them (mocks added later start their sequences over); the scenario's stay.
      for (const key of session.positions?.keys() ?? []) if (key.startsWith(TEST_MOCK_KEY_PREFIX)) session.positions!.delete(key);
    },
  };
}
