import { quote } from '../dev-utils.js';
import type { SessionStore } from '../store/session-store.js';
import { httpMocksOf, ownSocketsOf } from '../engine/sockets/own-socket-entry.js';
import type { Mock, SocketMock } from '../types.js';
import { checkTestMocks, type TestMockProblem } from './check-test-mocks.js';
import type { OwnMockLayers } from './create-own-mock-layers.js';

/** What adding a test's own mocks came to: how many it now has, or why nothing was added (and the status that says so over HTTP). */
export type AddTestMocksOutcome =
  | { ok: true; count: number }
  | { ok: false; status: 400 | 413 | 501; error: string; details?: TestMockProblem[]; hint?: string };

export interface TestMocksOptions {
  store: SessionStore;
  ownMocks: OwnMockLayers;
  maxMocks: number;
  maxBytes: number;
  /** `limits.maxTotalTestMockBytes`: the own mocks of all tests in the store together. */
  maxTotalBytes: number;
  /** Where the remedies point: `DELETE /__harness__/mocks`. */
  mocksPath: string;
  /** Where ending a test points: `DELETE /__scenario__`. */
  endPath: string;
}

/** The per-test mocks of a harness, as its methods and its control endpoint share them. */
export interface TestMocks {
  /** False when the store keeps no per-test mocks (it lacks `addMocks`, `readMocks` or `resetMocks`). */
  readonly available: boolean;
  /** Why they are not available, said the same way everywhere. */
  readonly unavailable: string;
  /** Add mocks and socket mocks (`sockets`) of the test's own, in one step: all of them or none. */
  add(testId: string, mocks: unknown, sockets?: unknown): Promise<AddTestMocksOutcome>;
  /** The test's own mocks, newest first: the order they win ties in. */
  list(testId: string): Promise<Mock[]>;
  /** The test's own socket mocks, newest first. */
  listSockets(testId: string): Promise<SocketMock[]>;
  reset(testId: string): Promise<void>;
}

/** `"mocks[1].response.status: Too big: …"`, then how many more. */
function describeProblems(problems: readonly TestMockProblem[]): string {
  const [first] = problems;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more: see details)` : '';
  return `${first!.field}: ${first!.message}${more}`;
}

/**
 * Add, list and remove a test's own mocks: checked by the scenario schema and the compiler
 * first (nothing is stored unless all of them are fine), bounded per test, then compiled once
 * so the test's next call finds them ready.
 */
export function createTestMocks({ store, ownMocks, maxMocks, maxBytes, maxTotalBytes, mocksPath, endPath }: TestMocksOptions): TestMocks {
  const available = store.addMocks !== undefined && store.readMocks !== undefined && store.resetMocks !== undefined;
  const unavailable = 'Per-test mocks are not available: the session store keeps none (a store needs addMocks, readMocks and resetMocks; the memory store and the Redis store have them).';

  return {
    available,
    unavailable,
    async add(testId, mocks, sockets) {
      if (!available) return { ok: false, status: 501, error: unavailable };
      const problems = await checkTestMocks(mocks ?? [], sockets);
      if (problems.length > 0) return { ok: false, status: 400, error: `Invalid request body: ${describeProblems(problems)}`, details: problems };
      // Socket mocks go in the same list, each marked (own-socket-entry.ts): one bound and one reset for both.
      const list = [...((mocks ?? []) as Mock[]), ...((sockets ?? []) as SocketMock[]).map((socket) => ({ socket }) as unknown as Mock)];
      // Measured as JSON: what the store keeps (a response function, in process, weighs nothing).
      const bytes = Buffer.byteLength(JSON.stringify(list));
      const result = await store.addMocks!(testId, list, bytes, { maxMocks, maxBytes, maxTotalBytes });
      if (!result.added) {
        const failed = `Failed to add ${list.length} ${list.length === 1 ? 'mock' : 'mocks'} for test ${quote(testId)}`;
        const count = result.count + list.length > maxMocks;
        if (count || result.bytes + bytes > maxBytes || result.totalBytes === undefined) {
          const over = count
            ? `it has ${result.count} and ${list.length} more would pass limits.maxTestMocks (${maxMocks})`
            : `it holds ${result.bytes} bytes of them and these ${bytes} more would pass limits.maxTestMockBytes (${maxBytes})`;
          return {
            ok: false,
            status: 413,
            error: `${failed}: ${over}. Nothing was added. Remove the test's mocks first (DELETE ${mocksPath}, harness.resetMocks()), put the shared ones in a scenario, or raise createHarness({ limits: { ${count ? 'maxTestMocks' : 'maxTestMockBytes'} } }).`,
          };
        }
        // The store-wide bound: this test may hold little, the others hold the rest.
        const hint = `limits.maxTotalTestMockBytes (${maxTotalBytes}) bounds the own mocks of all tests in the store together; a test's count until it ends (DELETE ${endPath}, harness.endTest()) or removes them (DELETE ${mocksPath}), or its session expires.`;
        return {
          ok: false,
          status: 413,
          error: `${failed}: the own mocks of all tests hold ${result.totalBytes} bytes and these ${bytes} more would pass limits.maxTotalTestMockBytes (${maxTotalBytes}). Nothing was added. End the tests that are done (DELETE ${endPath}, harness.endTest()), put mocks many tests share in a scenario, or raise createHarness({ limits: { maxTotalTestMockBytes } }).`,
          hint,
        };
      }
      const held = await store.readMocks!(testId);
      if (held !== undefined) ownMocks.prime(testId, held);
      return { ok: true, count: result.count };
    },
    async list(testId) {
      const held = available ? await store.readMocks!(testId) : undefined;
      return held === undefined ? [] : httpMocksOf(held.mocks).map(({ mock }) => mock).reverse();
    },
    async listSockets(testId) {
      const held = available ? await store.readMocks!(testId) : undefined;
      return held === undefined ? [] : ownSocketsOf(held.mocks).reverse();
    },
    async reset(testId) {
      if (available) await store.resetMocks!(testId);
    },
  };
}
