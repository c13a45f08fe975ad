import type { StreamEnd, StreamPacer } from '../../core/interception/mock-reply.js';

/*
 * One call's stream as its test sees it: where it is, where it stops, and what the test told it.
 */

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

/** A stream as its process shares it with the others (the streams part puts it in the store). */
export interface SharedStream {
  key: string;
  acted: number;
  view: StreamView;
}

export const ENDED: ReadonlySet<StreamState> = new Set<StreamState>(['complete', 'failed', 'aborted', 'cancelled']);

export interface HeldStream {
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
function settle(entry: HeldStream): void {
  const { waiting } = entry;
  if (waiting === undefined) return;
  entry.waiting = undefined;
  entry.view.heldMs += performance.now() - waiting.since;
  if (entry.abort !== undefined) return waiting.reject(entry.abort);
  entry.view.state = 'streaming';
  waiting.resolve();
}

/** Obey a test's command: let the stream run to its end, step it on, or abort it. */
export function obey(entry: HeldStream, command: StreamAction): void {
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
}

/** A new stream, not started: it holds at `afterChunks` chunks (never: `Infinity`). */
export function heldStream(key: string, testId: string, stream: { id: string; method: string; url: string; total: number; afterChunks: number }): HeldStream {
  const entry: HeldStream = {
    key,
    testId,
    acted: 0,
    view: { id: stream.id, method: stream.method, url: stream.url, state: 'streaming', delivered: 0, total: stream.total, startedAt: new Date().toISOString(), heldMs: 0 },
    stopAt: stream.afterChunks,
  };
  if (Number.isFinite(stream.afterChunks)) entry.view.holdsAt = stream.afterChunks;
  return entry;
}

/**
 * The pacer the pumps ask before each chunk: it keeps the stream's view up to date and waits at
 * its hold. `changed` is told of each chunk (`shared` false) and of each change of state (true).
 */
export function pacerOf(entry: HeldStream, changed: (shared: boolean) => void): StreamPacer & { key: string } {
  return {
    key: entry.key,
    beforeChunk(index) {
      entry.view.delivered = index;
      if (entry.abort !== undefined) return Promise.reject(entry.abort);
      if (index < entry.stopAt) {
        changed(false);
        return undefined;
      }
      entry.view.state = 'held';
      const held = new Promise<void>((resolve, reject) => {
        entry.waiting = { resolve, reject, since: performance.now() };
      });
      changed(true);
      return held;
    },
    ended(delivered, how: StreamEnd) {
      entry.view.delivered = delivered;
      entry.view.state = how;
      delete entry.view.holdsAt;
      changed(true);
    },
  };
}
