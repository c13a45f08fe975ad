import type { CompiledMock } from '../engine/compile-mock.js';
import type { ReplyStream } from '../interception/mock-reply.js';
import type { SessionStore } from '../store/session-store.js';
import type { JournalEntry, JournalStream } from './journal-entry.js';

/** A streamed answer's stream as its entry keeps it: its name and size, and the key its progress is found under. */
export function keptStream(stream: ReplyStream, mock: CompiledMock): JournalStream & { key?: string } {
  const kept: JournalStream & { key?: string } = { id: stream.id ?? mock.id ?? mock.key, chunks: stream.chunks.length };
  if (stream.key !== undefined) kept.key = stream.key;
  return kept;
}

/** What a stream's view in the store says of its progress (the streams part writes them: see `SessionStore.putStreamView`). */
interface SharedView {
  key: string;
  view: { delivered: number; state: string; heldMs: number };
}

/**
 * The entries with each stream's progress as the store knows it now: chunks delivered, its state
 * (held, complete, aborted…) and how long it was held. An entry keeps its stream's key for this
 * and shows it to no one.
 */
export async function withStreamProgress(store: SessionStore, testId: string, entries: JournalEntry[]): Promise<JournalEntry[]> {
  const views = new Map<string, SharedView['view']>();
  for (const json of (await store.readStreamViews?.(testId).catch(() => [])) ?? []) {
    const shared = JSON.parse(json) as SharedView;
    views.set(shared.key, shared.view);
  }
  return entries.map((entry) => {
    if (entry.stream === undefined) return entry;
    const { key, ...stream } = entry.stream as JournalStream & { key?: string };
    const view = key === undefined ? undefined : views.get(key);
    if (view !== undefined) Object.assign(stream, { delivered: view.delivered, state: view.state, heldMs: Math.round(view.heldMs) });
    return { ...entry, stream };
  });
}
