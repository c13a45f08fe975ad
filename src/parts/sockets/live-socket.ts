import { setTimeout as sleep } from 'node:timers/promises';
import type { CompiledSocket, CompiledSocketStep } from '../../core/engine/sockets/compile-socket.js';
import { frameBody, incomingFrame, outgoingFrame, type IncomingFrame } from '../../core/engine/sockets/socket-frames.js';
import type { TemplateContext } from '../../core/engine/template.js';
import type { SocketConnection, SocketHandshake } from '../../core/interception/socket-connection.js';
import type { SocketEvent } from '../../core/parts/call-steps.js';
import { EMPTY_STATE } from '../../core/store/apply-state-changes.js';
import type { SessionStore } from '../../core/store/session-store.js';

/** What a live socket is told when it opens: its test, its mock, and where its life is kept. */
export interface LiveSocketOptions {
  testId: string;
  connection: SocketConnection;
  handshake: SocketHandshake;
  mock: CompiledSocket;
  params: Record<string, string>;
  variant: string | undefined;
  /** Fields every journal event of this socket carries (its connection, mock, layer, side). */
  event: Omit<SocketEvent, 'kind'>;
  journal: ((event: SocketEvent) => void) | undefined;
  store: SessionStore;
  maxStateBytes: number;
  instant: boolean;
  onEnd(): void;
}

/** A socket a socket mock answers, open: the test can push to it and close it. */
export interface LiveSocket {
  readonly testId: string;
  readonly url: URL;
  /** Send a frame the test pushed. */
  push(data: string | Buffer, binary: boolean): Promise<void>;
  /** Close it (the test's `closeSocket`). */
  close(code: number, reason: string): void;
  /** Drop it without a word (the harness stops). */
  drop(): void;
}

/**
 * Run a socket mock on an open connection: `onConnect`'s steps, then each frame the app sends
 * against the rules, the first that matches running its steps. Steps run one after another on
 * one queue per socket, so a rule's answer never overtakes the steps before it. Everything that
 * happens goes to the test's journal.
 */
export function runLiveSocket(options: LiveSocketOptions): LiveSocket {
  const { testId, connection, handshake, mock, params, variant, event, journal, store } = options;
  let queue: Promise<void> = Promise.resolve();
  const note = (fields: Omit<SocketEvent, keyof LiveSocketOptions['event']> & Partial<SocketEvent>) => journal?.({ ...event, ...fields } as SocketEvent);

  /** What templates read; the store is asked for the test's state only when one reads it. */
  async function context(frame: IncomingFrame | undefined, readsState: boolean): Promise<TemplateContext> {
    const state = readsState ? ((await store.read(testId))?.state ?? EMPTY_STATE) : EMPTY_STATE;
    return { params, url: handshake.url, headers: handshake.headers, body: frameBody(frame), state, variant };
  }

  async function run(steps: readonly CompiledSocketStep[], rule: string, frame: IncomingFrame | undefined): Promise<void> {
    if (steps.length === 0) return;
    let values: TemplateContext | undefined;
    for (const step of steps) {
      if (!connection.isOpen) return;
      switch (step.kind) {
        case 'send': {
          if (step.fixed === undefined && (values === undefined || (step.readsState && values.state === EMPTY_STATE))) values = await context(frame, step.readsState);
          const { data, binary } = outgoingFrame(step, values!);
          // Not awaited: the connection keeps its frames in order, and a burst of sends is not one write-callback each.
          void connection.send(data, binary);
          note({ kind: 'socket.frame', direction: 'received', data, binary, rule });
          break;
        }
        case 'delay':
          if (!options.instant && step.ms > 0) await sleep(step.ms);
          break;
        case 'close':
          connection.close(step.code, step.reason);
          return;
        case 'error':
          closedBy = 'error';
          errorText = step.message;
          connection.drop();
          return;
        case 'setState': {
          values = await context(frame, true);
          const filled = values;
          await store.updateState(testId, step.changes.map(({ key, append, value }) => ({ key, append, value: value.evaluate(filled) })), undefined, { maxBytes: options.maxStateBytes });
          // Later steps read what this one wrote.
          values = undefined;
          break;
        }
      }
    }
  }

  const enqueue = (steps: readonly CompiledSocketStep[], rule: string, frame: IncomingFrame | undefined) => {
    if (steps.length === 0) return;
    queue = queue.then(() => run(steps, rule, frame)).catch(() => connection.drop());
  };

  let closedBy: SocketEvent['closedBy'] | undefined;
  let errorText: string | undefined;
  connection.onFrame((data, binary) => {
    const frame = incomingFrame(data, binary);
    const rule = mock.rules.find((candidate) => candidate.test(frame));
    // A text frame goes to the journal as the text the rules read: not decoded twice.
    const kept = frame.text ?? data;
    if (rule !== undefined) {
      note({ kind: 'socket.frame', direction: 'sent', data: kept, binary, rule: rule.label });
      return enqueue(rule.steps, rule.label, frame);
    }
    note({ kind: 'socket.frame', direction: 'sent', data: kept, binary, nearMisses: mock.rules.map((candidate) => candidate.explain(frame)) });
    // On the queue: the answers to the frames before it go out first.
    if (mock.unmatched === 'close') {
      queue = queue.then(() => {
        if (!connection.isOpen) return;
        closedBy ??= 'mock';
        connection.close(1008, 'No rule of the socket mock matches the frame');
      });
    }
  });
  connection.onClose((code, reason, by) => {
    note({ kind: 'socket.close', code, reason: errorText ?? reason, closedBy: closedBy ?? (by === 'client' ? 'app' : 'mock') });
    options.onEnd();
  });
  note({ kind: 'socket.open' });
  enqueue(mock.onConnect, 'onConnect', undefined);

  return {
    testId,
    url: handshake.url,
    async push(data, binary) {
      if (!connection.isOpen) return;
      await connection.send(data, binary);
      note({ kind: 'socket.frame', direction: 'received', data, binary, rule: 'test' });
    },
    close(code, reason) {
      closedBy = 'test';
      connection.close(code, reason);
    },
    drop() {
      closedBy = 'mock';
      connection.drop();
    },
  };
}
