import crypto from 'node:crypto';
import type { StreamEnd, StreamPacer } from '../../core/interception/mock-reply.js';

/** Where a stream is: sending, stopped at its hold, or ended (and how). */
export type StreamState = 'streaming' | 'held' | StreamEnd;

/** One stream of one test, as `GET /__harness__/streams` lists it. */
export interface StreamView {
  id: string;
  /** The call's method and URL. */
  method: string;
  url: string;
  state: StreamState;
  /** Chunks the app was sent so far. */
  delivered: number;
  /** Chunks the stream has in all. */
  total: number;
  /** Where it stops next (absent: nowhere, it runs to its end). */
  holdsAt?: number;
  /** When it started (ISO 8601). */
  startedAt: string;
  /** Milliseconds it spent held, so far. */
  heldMs: number;
}

/** What a test can do to one of its streams. */
export type StreamAction = { action: 'release' } | { action: 'step'; count: number } | { action: 'abort' };

/** Streams a test keeps listed: the live ones, and the newest ended ones up to this many in all. */
const MAX_PER_TEST = 50;
/** Tests whose streams are kept: past this, the oldest test with no live stream is forgotten (a long soak must not grow the map). */
const MAX_TESTS = 1000;

const ENDED: ReadonlySet<StreamState> = new Set<StreamState>(['complete', 'failed', 'aborted', 'cancelled']);

interface Entry {
  /** Unique across the app's processes: what another process addresses this stream by. */
  key: string;
  testId: string;
  view: StreamView;
  /** How many commands it has obeyed: another process waits for this to grow. */
  acted: number;
  /** The chunk index it waits before (Infinity: it never waits again). */
  stopAt: number;
  /** Set by an abort: the next wait fails instead of waiting. */
  abort?: Error;
  /** The held chunk's wait, settled by release, step or abort. */
  waiting?: { resolve(): void; reject(error: Error): void; since: number };
}

/** Why an aborted stream's body fails, as the app's reader sees it. */
function abortedError(id: string): Error {
  return Object.assign(new Error(`The stream ${JSON.stringify(id)} was aborted by its test (scenario-harness streams: abort)`), { code: 'ECONNRESET' });
}

/** Let a held stream go on (or fail, after an abort). */
function settle(entry: Entry): void {
  const { waiting } = entry;
  if (waiting === undefined) return;
  entry.waiting = undefined;
  entry.view.heldMs += performance.now() - waiting.since;
  if (entry.abort !== undefined) return waiting.reject(entry.abort);
  entry.view.state = 'streaming';
  waiting.resolve();
}

/**
 * The streams of every test in this process, by test ID: where each one holds, and what its test
 * told it. A test only ever sees and moves its own, so two tests streaming the same URL at once
 * never cross.
 */
/** A stream as this process shares it with the others (the streams part puts it in the store). */
export interface SharedStream {
  key: string;
  acted: number;
  view: StreamView;
}

export function createStreamRegistry(options: { onChange?(testId: string, stream: SharedStream): void } = {}) {
  const byTest = new Map<string, Entry[]>();
  /** Who waits for a test's streams to change (`waitFor`). */
  const watchers = new Map<string, Set<() => void>>();
  const process = crypto.randomUUID();
  let made = 0;

  /** Tell the waiters; `shared` (a change of state, not a chunk) tells the other processes too. */
  function changed(testId: string, entry?: Entry): void {
    if (entry !== undefined) options.onChange?.(testId, { key: entry.key, acted: entry.acted, view: { ...entry.view } });
    for (const watcher of [...(watchers.get(testId) ?? [])]) watcher();
  }

  function obey(entry: Entry, command: StreamAction): void {
    const { view } = entry;
    if (command.action === 'abort') {
      // A held stream fails now; one still sending fails before its next chunk.
      entry.abort = abortedError(view.id);
      delete view.holdsAt;
    } else {
      // A step counts from where the stream is (held at `delivered`, or sending).
      entry.stopAt = command.action === 'release' ? Infinity : view.delivered + command.count;
      if (entry.stopAt === Infinity || entry.stopAt >= view.total) delete view.holdsAt;
      else view.holdsAt = entry.stopAt;
    }
    entry.acted += 1;
    settle(entry);
    changed(entry.testId, entry);
  }

  function keep(testId: string, entry: Entry): void {
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
  function find(testId: string, id: string): Entry | undefined {
    const list = (byTest.get(testId) ?? []).filter((entry) => entry.view.id === id);
    return list.find((entry) => !ENDED.has(entry.view.state)) ?? list.at(-1);
  }

  return {
    /** A pacer for one call's stream, known by `key`: it holds the stream at `afterChunks` chunks (never: `Infinity`), and lists it under its test. */
    pacer(testId: string, stream: { id: string; method: string; url: string; total: number; afterChunks: number }): StreamPacer & { key: string } {
      const entry: Entry = {
        key: `${process}.${(made += 1)}`,
        testId,
        acted: 0,
        view: { id: stream.id, method: stream.method, url: stream.url, state: 'streaming', delivered: 0, total: stream.total, startedAt: new Date().toISOString(), heldMs: 0 },
        stopAt: stream.afterChunks,
      };
      if (Number.isFinite(stream.afterChunks)) entry.view.holdsAt = stream.afterChunks;
      keep(testId, entry);
      changed(testId, entry);
      return {
        key: entry.key,
        beforeChunk(index) {
          entry.view.delivered = index;
          if (entry.abort !== undefined) return Promise.reject(entry.abort);
          if (index < entry.stopAt) {
            changed(testId);
            return undefined;
          }
          entry.view.state = 'held';
          const held = new Promise<void>((resolve, reject) => {
            entry.waiting = { resolve, reject, since: performance.now() };
          });
          changed(testId, entry);
          return held;
        },
        ended(delivered, how) {
          entry.view.delivered = delivered;
          entry.view.state = how;
          delete entry.view.holdsAt;
          changed(testId, entry);
        },
      };
    },

    /** This process's streams that have not ended: the ones another process may send commands to. */
    live(): { testId: string; key: string }[] {
      return [...byTest.values()].flat().filter(({ view }) => !ENDED.has(view.state)).map(({ testId, key }) => ({ testId, key }));
    },

    /** Obey a command another process sent to stream `key` (ignored once it ended). */
    actByKey(testId: string, key: string, command: StreamAction): void {
      const entry = (byTest.get(testId) ?? []).find((candidate) => candidate.key === key);
      if (entry !== undefined && !ENDED.has(entry.view.state)) obey(entry, command);
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

    /** Forget a test's streams (the test ended): live ones are released and run to their end. */
    end(testId: string): void {
      for (const entry of byTest.get(testId) ?? []) {
        entry.stopAt = Infinity;
        settle(entry);
      }
      byTest.delete(testId);
      changed(testId);
    },
  };
}

export type StreamRegistry = ReturnType<typeof createStreamRegistry>;
