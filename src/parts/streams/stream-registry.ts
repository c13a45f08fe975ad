import crypto from 'node:crypto';
import type { StreamPacer } from '../../core/interception/mock-reply.js';
import { ENDED, heldStream, obey, pacerOf, type HeldStream, type SharedStream, type StreamAction, type StreamView } from './held-stream.js';

export type { SharedStream, StreamAction, StreamState, StreamView } from './held-stream.js';

/** Streams a test keeps listed: the live ones, and the newest ended ones up to this many in all. */
const MAX_PER_TEST = 50;
/** Tests whose streams are kept: past this, the oldest test with no live stream is forgotten (a long soak must not grow the map). */
const MAX_TESTS = 1000;

/**
 * The streams of every test in this process, by test ID: where each one holds, and what its test
 * told it. A test only ever sees and moves its own, so two tests streaming the same URL at once
 * never cross. `onChange` hears of each change of state (the streams part shares it through the store).
 */
export function createStreamRegistry(options: { onChange?(testId: string, stream: SharedStream): void } = {}) {
  const byTest = new Map<string, HeldStream[]>();
  /** Who waits for a test's streams to change (`waitFor`). */
  const watchers = new Map<string, Set<() => void>>();
  const process = crypto.randomUUID();
  let made = 0;

  /** Tell the waiters; `shared` (a change of state, not a chunk) tells the other processes too. */
  function changed(testId: string, entry?: HeldStream): void {
    if (entry !== undefined) options.onChange?.(testId, { key: entry.key, acted: entry.acted, view: { ...entry.view } });
    for (const watcher of [...(watchers.get(testId) ?? [])]) watcher();
  }

  function keep(testId: string, entry: HeldStream): void {
    const list = byTest.get(testId) ?? [];
    // Newest test last: the Map runs oldest first when one must go.
    byTest.delete(testId);
    list.push(entry);
    // The oldest ended streams go first; a live one is never dropped.
    while (list.length > MAX_PER_TEST) {
      const ended = list.findIndex(({ view }) => ENDED.has(view.state));
      if (ended === -1) break;
      list.splice(ended, 1);
    }
    byTest.set(testId, list);
    if (byTest.size <= MAX_TESTS) return;
    for (const [oldTest, streams] of byTest) {
      if (streams.every(({ view }) => ENDED.has(view.state))) {
        byTest.delete(oldTest);
        break;
      }
    }
  }

  /** The test's oldest stream of this id that has not ended, else its newest. */
  function find(testId: string, id: string): HeldStream | undefined {
    const list = (byTest.get(testId) ?? []).filter((entry) => entry.view.id === id);
    return list.find((entry) => !ENDED.has(entry.view.state)) ?? list.at(-1);
  }

  return {
    /** A pacer for one call's stream, known by `key`: it holds the stream at `afterChunks` chunks (never: `Infinity`), and lists it under its test. */
    pacer(testId: string, stream: { id: string; method: string; url: string; total: number; afterChunks: number }): StreamPacer & { key: string } {
      const entry = heldStream(`${process}.${(made += 1)}`, testId, stream);
      keep(testId, entry);
      changed(testId, entry);
      return pacerOf(entry, (shared) => changed(testId, shared ? entry : undefined));
    },

    /** This process's streams that have not ended: the ones another process may send commands to. */
    live(): { testId: string; key: string }[] {
      return [...byTest.values()].flat().filter(({ view }) => !ENDED.has(view.state)).map(({ testId, key }) => ({ testId, key }));
    },

    /** Obey a command another process sent to stream `key` (ignored once it ended). */
    actByKey(testId: string, key: string, command: StreamAction): void {
      const entry = (byTest.get(testId) ?? []).find((candidate) => candidate.key === key);
      if (entry === undefined || ENDED.has(entry.view.state)) return;
      obey(entry, command);
      changed(testId, entry);
    },

    /** The test's streams, oldest first. */
    list(testId: string): StreamView[] {
      return (byTest.get(testId) ?? []).map(({ view }) => ({ ...view }));
    },

    /** The test's streams in this process, as it shares them with the others. */
    shared(testId: string): SharedStream[] {
      return (byTest.get(testId) ?? []).map(({ key, acted, view }) => ({ key, acted, view: { ...view } }));
    },

    /** Release, step or abort the test's stream `id`: its view after, `ended` when it had ended already, `undefined` when it has none of that id. */
    act(testId: string, id: string, command: StreamAction): { view: StreamView; ended: boolean } | undefined {
      const entry = find(testId, id);
      if (entry === undefined) return undefined;
      if (ENDED.has(entry.view.state)) return { view: { ...entry.view }, ended: true };
      obey(entry, command);
      changed(testId, entry);
      return { view: { ...entry.view }, ended: false };
    },

    /** The test's stream `id` once `ready` holds for it (checked now and at every change), or `undefined` after `timeoutMs`. */
    waitFor(testId: string, id: string, ready: (view: StreamView) => boolean, timeoutMs: number): Promise<StreamView | undefined> {
      return new Promise((resolve) => {
        const set = watchers.get(testId) ?? new Set<() => void>();
        watchers.set(testId, set);
        const finish = (view: StreamView | undefined) => {
          clearTimeout(timer);
          set.delete(check);
          if (set.size === 0 && watchers.get(testId) === set) watchers.delete(testId);
          resolve(view === undefined ? undefined : { ...view });
        };
        const check = () => {
          const entry = find(testId, id);
          if (entry !== undefined && ready(entry.view)) finish(entry.view);
        };
        const timer = setTimeout(() => finish(undefined), timeoutMs);
        set.add(check);
        check();
      });
    },
  };
}

export type StreamRegistry = ReturnType<typeof createStreamRegistry>;
