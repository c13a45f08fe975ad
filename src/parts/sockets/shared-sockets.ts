import { randomUUID } from 'node:crypto';
import type { Logger } from '../../core/dev-utils.js';
import type { SessionStore } from '../../core/store/session-store.js';
import type { SocketFrame } from '../../core/types.js';
import type { LiveSocket } from './live-socket.js';
import { framePayload, socketUrlMatcher, type OpenSockets } from './open-sockets.js';

/** How often a process holding open sockets looks for pushes other processes sent them. */
const POLL_MS = 25;

/** A socket as other processes see it in the store. */
interface SharedSocketView {
  url: string;
  open: boolean;
}

/** A push or close another process sent to a socket this one holds. */
type SocketCommand = { action: 'send'; base64: string; binary: boolean } | { action: 'close'; code: number; reason: string };

type SharingStore = Required<Pick<SessionStore, 'putStreamView' | 'readStreamViews' | 'sendStreamCommand' | 'takeStreamCommands'>>;

/**
 * A test's sockets in the store, apart from its streams: the store's keyed views and command
 * lists (the ones held streams use) under a name of their own, so neither part reads the other's.
 */
const sharedName = (testId: string) => `${testId}\u0000sockets`;

/**
 * Open sockets across the app's processes (replicas on one Redis store, a process tree): each
 * process puts a view of the sockets it holds in the store and, while it holds any, takes the
 * pushes and closes sent to them; a push through any process reaches the test's sockets of that
 * URL in every process. A store without the four keyed-view methods keeps it all in this process.
 */
export function shareOpenSockets(open: OpenSockets, store: SessionStore, logger: Logger): OpenSockets {
  const { putStreamView, readStreamViews, sendStreamCommand, takeStreamCommands } = store;
  if (putStreamView === undefined || readStreamViews === undefined || sendStreamCommand === undefined || takeStreamCommands === undefined) return open;
  const shared = store as SharingStore;
  const process = randomUUID();
  const held = new Map<string, { socket: LiveSocket; testId: string }>();
  let polling = false;
  const failed = (what: string) => (error: unknown) => logger.warn(`Failed to ${what} in the session store: ${(error as Error).message} (pushes then reach this process's sockets only).`);

  async function poll(): Promise<void> {
    if (polling) return;
    polling = true;
    try {
      while (held.size > 0) {
        for (const [key, { socket, testId }] of held) {
          const commands = await shared.takeStreamCommands(sharedName(testId), key).catch(failed('take pushes for an open socket'));
          for (const text of commands ?? []) {
            const command = JSON.parse(text) as SocketCommand;
            if (command.action === 'send') await socket.push(Buffer.from(command.base64, 'base64'), command.binary);
            else socket.close(command.code, command.reason);
          }
        }
        await new Promise<void>((resolve) => setTimeout(resolve, POLL_MS).unref());
      }
    } finally {
      polling = false;
    }
  }

  /** The test's open sockets of `url` in other processes, by key. */
  async function remote(testId: string, url: string): Promise<string[] | string> {
    const matches = socketUrlMatcher(url);
    if (typeof matches === 'string') return matches;
    const views = (await shared.readStreamViews(sharedName(testId))).map((json) => JSON.parse(json) as SharedSocketView & { key: string });
    return views.filter((view) => view.open && !held.has(view.key) && matches(view.url)).map((view) => view.key);
  }

  async function everywhere(testId: string, url: string, local: () => Promise<number | string> | number | string, command: SocketCommand): Promise<number | string> {
    const here = await local();
    const there = await remote(testId, url).catch((error: unknown) => (failed('read the open sockets of other processes')(error), [] as string[]));
    if (typeof there === 'string') return there;
    await Promise.all(there.map((key) => shared.sendStreamCommand(sharedName(testId), key, JSON.stringify(command))));
    if (typeof here === 'string') return there.length > 0 ? there.length : here;
    return here + there.length;
  }

  return {
    add(socket) {
      const forget = open.add(socket);
      const key = `${process}:${randomUUID()}`;
      const { testId } = socket;
      held.set(key, { socket, testId });
      shared.putStreamView(sharedName(testId), key, JSON.stringify({ key, url: socket.url.href, open: true })).catch(failed('share an open socket'));
      void poll();
      return () => {
        forget();
        held.delete(key);
        shared.putStreamView(sharedName(testId), key, JSON.stringify({ key, url: socket.url.href, open: false })).catch(failed('share a closed socket'));
      };
    },
    send(testId, url, frame: SocketFrame) {
      const { data, binary } = framePayload(frame);
      return everywhere(testId, url, () => open.send(testId, url, frame), { action: 'send', base64: Buffer.from(data).toString('base64'), binary });
    },
    close(testId, url, code, reason) {
      return everywhere(testId, url, () => open.close(testId, url, code, reason), { action: 'close', code, reason }) as unknown as number | string;
    },
    dropAll: () => {
      held.clear();
      open.dropAll();
    },
  };
}
