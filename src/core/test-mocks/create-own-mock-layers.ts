import { quote } from '../dev-utils.js';
import type { MockIndex } from '../engine/mock-index.js';
import { HarnessError } from '../errors.js';
import type { SessionStore, StoredMocks } from '../store/session-store.js';
import { compileTestMocks } from './compile-test-mocks.js';

/** Tests whose compiled mocks are kept: more live tests with mocks of their own compile again when they call. */
const MAX_COMPILED = 1000;

interface Compiled {
  version: string;
  layer: MockIndex;
  /** The test's layer before each scenario's layers it was used with (a handful: scenarios × variants). */
  over: Map<readonly MockIndex[], readonly MockIndex[]>;
}

/** Where a test's own mocks are looked up: compiled once per version of them, laid over its scenario's layers. */
export interface OwnMockLayers {
  /** The layers of a test whose mocks of this version are compiled already; `undefined` when they are not. */
  layersNow(testId: string, version: string, base: readonly MockIndex[]): readonly MockIndex[] | undefined;
  /** The layers of a test with mocks of its own, reading and compiling them when needed. */
  layers(testId: string, version: string, base: readonly MockIndex[]): Promise<readonly MockIndex[]>;
  /** Compile what the store holds now (after an add), so the test's next call finds it compiled. */
  prime(testId: string, mocks: StoredMocks): void;
}

/**
 * The per-test layer, kept out of the store: a store holds plain data (Redis, one replica's
 * mocks answering on every replica), and each process compiles a version once. A call of a test
 * without mocks of its own never gets here (`SessionSnapshot.mocks` is absent).
 */
export function createOwnMockLayers(store: SessionStore): OwnMockLayers {
  const compiled = new Map<string, Compiled>();

  function keep(testId: string, { version, mocks }: StoredMocks): Compiled {
    const entry: Compiled = { version, layer: compileTestMocks(mocks), over: new Map() };
    compiled.delete(testId);
    compiled.set(testId, entry);
    // The Map runs oldest first: an ended test's entry goes once newer tests have pushed it out.
    if (compiled.size > MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    return entry;
  }

  function over(entry: Compiled, base: readonly MockIndex[]): readonly MockIndex[] {
    let layers = entry.over.get(base);
    if (layers === undefined) entry.over.set(base, (layers = [entry.layer, ...base]));
    return layers;
  }

  return {
    layersNow(testId, version, base) {
      const entry = compiled.get(testId);
      return entry?.version === version ? over(entry, base) : undefined;
    },
    async layers(testId, version, base) {
      const entry = compiled.get(testId);
      if (entry?.version === version) return over(entry, base);
      // A session that says it has mocks of its own, in a store that cannot read them (a process
      // sharing another's sessions through a store without readMocks): answering from the
      // scenario instead would ignore the test's own mocks without a word.
      if (store.readMocks === undefined) {
        throw new HarnessError('STORE_UNAVAILABLE', `Failed to read the mocks test ${quote(testId)} added of its own: its session has some, but this process's session store has no readMocks method. A store that keeps a test's own mocks needs addMocks, readMocks and resetMocks (the memory store and the Redis store have them)`);
      }
      const held = await store.readMocks(testId);
      // Removed since the session was read: the call is answered as if they were gone already.
      return held === undefined ? base : over(keep(testId, held), base);
    },
    prime(testId, mocks) {
      keep(testId, mocks);
    },
  };
}
