import type { Logger } from '../../core/dev-utils.js';
import type { SessionStore } from '../../core/store/session-store.js';
import type { SharedStream, StreamAction, StreamRegistry, StreamView } from './stream-registry.js';

/** How often a process looks for commands to the streams it holds, and another for a stream's change. */
const POLL_MS = 25;
/** How long a command waits for the process holding its stream to obey it. */
const OBEY_WITHIN_MS = 2000;

type SharingStore = Required<Pick<SessionStore, 'putStreamView' | 'readStreamViews' | 'sendStreamCommand' | 'takeStreamCommands'>>;

/** A test's streams as the streams endpoint sees them: this process's and, through a shared store, every other's. */
export interface TestStreams {
  list(testId: string): Promise<StreamView[]>;
  /** Its view after the command, `ended` when it had ended, `undefined` when the test has no such stream, `'unanswered'` when its process did not obey in time. */
  act(testId: string, id: string, command: StreamAction): Promise<{ view: StreamView; ended: boolean } | undefined | 'unanswered'>;
  waitFor(testId: string, id: string, ready: (view: StreamView) => boolean, timeoutMs: number): Promise<StreamView | undefined>;
}

function sharing(store: SessionStore): SharingStore | undefined {
  const { putStreamView, readStreamViews, sendStreamCommand, takeStreamCommands } = store;
  if (putStreamView === undefined || readStreamViews === undefined || sendStreamCommand === undefined || takeStreamCommands === undefined) return undefined;
  return store as SharingStore;
}

const ENDED = new Set(['complete', 'failed', 'aborted', 'cancelled']);

/** The oldest stream of this id that has not ended, else the newest. */
function pick(streams: readonly SharedStream[], id: string): SharedStream | undefined {
  const ofId = streams.filter((stream) => stream.view.id === id);
  return ofId.find((stream) => !ENDED.has(stream.view.state)) ?? ofId.at(-1);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Held streams across the app's processes (replicas on one Redis store, or the processes of a
 * tree under register): the process holding a stream puts its view in the store at each change
 * of state and takes the commands sent to it; any process lists a test's streams from the store,
 * and sends a command to the process that holds the stream, answering once it was obeyed. A store
 * without the four stream methods keeps it all in this process.
 */
export function createTestStreams(registry: StreamRegistry, store: SessionStore, logger: Logger): { streams: TestStreams; onChange(testId: string, stream: SharedStream): void } {
  const shared = sharing(store);
  let polling = false;

  const failed = (what: string) => (error: unknown) => logger.warn(`Failed to ${what} in the session store: ${(error as Error).message} (held streams are then seen by this process only).`);

  /** While this process holds live streams, take the commands other processes sent them. */
  async function poll(): Promise<void> {
    if (polling || shared === undefined) return;
    polling = true;
    try {
      for (let live = registry.live(); live.length > 0; live = registry.live()) {
        for (const { testId, key } of live) {
          const commands = await shared.takeStreamCommands(testId, key).catch(failed('take commands for a held stream'));
          for (const command of commands ?? []) registry.actByKey(testId, key, JSON.parse(command) as StreamAction);
        }
        await sleep(POLL_MS);
      }
    } finally {
      polling = false;
    }
  }

  async function everyStream(testId: string): Promise<SharedStream[]> {
    const local = registry.shared(testId);
    if (shared === undefined) return local;
    const keys = new Set(local.map((stream) => stream.key));
    const remote = ((await shared.readStreamViews(testId)) ?? []).map((json) => JSON.parse(json) as SharedStream).filter((stream) => !keys.has(stream.key));
    return [...local, ...remote].sort((a, b) => a.view.startedAt.localeCompare(b.view.startedAt));
  }

  const streams: TestStreams = {
    async list(testId) {
      return (await everyStream(testId)).map((stream) => stream.view);
    },
    async act(testId, id, command) {
      const local = registry.act(testId, id, command);
      if (local !== undefined || shared === undefined) return local;
      const target = pick(await everyStream(testId), id);
      if (target === undefined) return undefined;
      if (ENDED.has(target.view.state)) return { view: target.view, ended: true };
      await shared.sendStreamCommand(testId, target.key, JSON.stringify(command));
      for (const until = Date.now() + OBEY_WITHIN_MS; Date.now() < until; await sleep(POLL_MS)) {
        const now = (await everyStream(testId)).find((stream) => stream.key === target.key);
        if (now !== undefined && now.acted > target.acted) return { view: now.view, ended: false };
      }
      return 'unanswered';
    },
    async waitFor(testId, id, ready, timeoutMs) {
      if (shared === undefined) return registry.waitFor(testId, id, ready, timeoutMs);
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = pick(await everyStream(testId), id);
        if (found !== undefined && ready(found.view)) return found.view;
        const left = until - Date.now();
        if (left <= 0) return undefined;
        // A change here answers at once; one in another process is seen at the next look.
        await registry.waitFor(testId, id, ready, Math.min(POLL_MS, left));
      }
    },
  };

  return {
    streams,
    onChange(testId, stream) {
      if (shared === undefined) return;
      shared.putStreamView(testId, stream.key, JSON.stringify(stream)).catch(failed('share a held stream'));
      if (!ENDED.has(stream.view.state)) void poll();
    },
  };
}
