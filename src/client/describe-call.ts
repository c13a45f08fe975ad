import type { JournalEntry } from '../core/journal/journal-entry.js';

/** The answering mock's key, as near misses name mocks: `checkout#0`, `checkout~slow#1`, `(test)#0` for the test's own. */
export function mockKeyOf(entry: JournalEntry): string {
  if (entry.layer === 'test') return `(test)#${entry.mockIndex ?? '?'}`;
  return `${entry.scenarioId ?? '?'}${entry.layer === 'variant' && entry.variant !== undefined ? `~${entry.variant}` : ''}#${entry.mockIndex ?? '?'}`;
}

/**
 * One journal entry as one line:
 * `POST https://api.stripe.com/v1/charges → 201 by checkout#0 "charge-5000"`, or
 * `GET https://api.x.test/users → unanswered (failed): <its first near miss>`.
 */
export function describeCall(entry: JournalEntry): string {
  // The browser's calls are marked: a failed test's summary shows both sides in the order they came.
  const call = `${entry.side === 'browser' ? '(browser) ' : ''}${entry.method} ${entry.url}`;
  if (entry.kind !== undefined) return describeSocketEvent(entry);
  if (!entry.answered) {
    const [nearest] = entry.nearMisses ?? [];
    return `${call} → unanswered (${entry.unhandled ?? 'no mock answered'})${nearest === undefined ? '' : `: ${nearest}`}`;
  }
  const answer = entry.fault === undefined ? String(entry.status) : `${entry.fault} error`;
  const step = entry.step === undefined ? '' : ` (step ${entry.step})`;
  const delay = entry.delayMs === undefined ? '' : `, after ${entry.delayMs} ms`;
  return `${call} → ${answer} by ${mockKeyOf(entry)}${entry.mockId === undefined ? '' : ` ${JSON.stringify(entry.mockId)}`}${step}${delay}`;
}

/**
 * A socket entry as one line: `(browser) socket s1 wss://feed.test/v1 opened by default.sockets[0]`,
 * `socket s1 → text {"type":"subscribe"} (on[0])`, `socket s1 ← text {"price":12} (test)`,
 * `socket s1 closed 1000 "done" by the app`.
 */
function describeSocketEvent(entry: JournalEntry): string {
  const socket = entry.socket;
  const name = `${entry.side === 'browser' ? '(browser) ' : ''}socket ${socket?.connection ?? '?'}`;
  if (entry.kind === 'socket.open') return `${name} ${entry.url} opened, answered by ${socket?.id ?? '?'}${socket?.outsideTest === true ? ' (opened outside any test: default answers it)' : ''}`;
  if (entry.kind === 'socket.close') return `${name} closed ${socket?.code ?? '?'}${socket?.reason ? ` ${JSON.stringify(socket.reason)}` : ''} by the ${socket?.closedBy ?? '?'}`;
  const data = socket?.data === undefined ? '' : ` ${socket.data.length > 80 ? `${socket.data.slice(0, 80)}…` : socket.data}`;
  const why = socket?.rule !== undefined ? ` (${socket.rule})` : socket?.nearMisses !== undefined && socket.nearMisses.length > 0 ? ` (no rule matched: ${socket.nearMisses[0]})` : '';
  return `${name} ${socket?.direction === 'sent' ? '→' : '←'} ${socket?.opcode ?? 'text'}${data}${why}`;
}
