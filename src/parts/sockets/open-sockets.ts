import { quote } from '../../core/dev-utils.js';
import { socketUrlMatcher as matchSocketUrl } from '../../core/engine/sockets/socket-url-matcher.js';
import type { SocketFrame } from '../../core/types.js';
import type { LiveSocket } from './live-socket.js';

/** The sockets open now, by test: what the sockets endpoint pushes to and closes. */
export interface OpenSockets {
  add(socket: LiveSocket): () => void;
  /** Push a frame to the test's open sockets of `url`: how many got it, or why none did. */
  send(testId: string, url: string, frame: SocketFrame): Promise<number | string>;
  close(testId: string, url: string, code: number, reason: string): Promise<number | string> | number | string;
  /** Drop every open socket (the harness stops). */
  dropAll(): void;
}

/** The bytes of a frame the test pushes: a string as text, `{ json }` as JSON text, `{ base64 }` as binary. */
export function framePayload(frame: SocketFrame): { data: string | Buffer; binary: boolean } {
  if (typeof frame === 'string') return { data: frame, binary: false };
  if ('json' in frame) return { data: JSON.stringify(frame.json), binary: false };
  return { data: Buffer.from(frame.base64, 'base64'), binary: true };
}

/** Whether a socket's URL is one `url` names; a string says why `url` is no pattern (a 400). */
export function socketUrlMatcher(url: string): ((socketUrl: string) => boolean) | string {
  const matcher = matchSocketUrl(url);
  return typeof matcher === 'string' ? `Invalid request body: url: ${matcher}.` : matcher;
}

export function createOpenSockets(): OpenSockets {
  const byTest = new Map<string, Set<LiveSocket>>();

  /** The test's open sockets whose URL `url` names (a URL, or a pattern as a socket mock's). */
  function matching(testId: string, url: string): LiveSocket[] | string {
    const matches = socketUrlMatcher(url);
    if (typeof matches === 'string') return matches;
    const open = [...(byTest.get(testId) ?? [])];
    const found = open.filter((socket) => matches(socket.url.href));
    if (found.length > 0) return found;
    const names = open.map((socket) => socket.url.href);
    return `No open socket of test ${quote(testId)} matches ${url}${names.length === 0 ? ': it has none open (a socket counts from its handshake; wait for the app to open it, e.g. with waitForFrame or the journal\'s socket.open entry)' : `; it has these open: ${names.join(', ')}`}.`;
  }

  return {
    add(socket) {
      let set = byTest.get(socket.testId);
      if (set === undefined) byTest.set(socket.testId, (set = new Set()));
      set.add(socket);
      return () => {
        set.delete(socket);
        if (set.size === 0 && byTest.get(socket.testId) === set) byTest.delete(socket.testId);
      };
    },
    async send(testId, url, frame) {
      const found = matching(testId, url);
      if (typeof found === 'string') return found;
      const { data, binary } = framePayload(frame);
      await Promise.all(found.map((socket) => socket.push(data, binary)));
      return found.length;
    },
    close(testId, url, code, reason) {
      const found = matching(testId, url);
      if (typeof found === 'string') return found;
      for (const socket of found) socket.close(code, reason);
      return found.length;
    },
    dropAll() {
      for (const set of byTest.values()) for (const socket of set) socket.drop();
      byTest.clear();
    },
  };
}
