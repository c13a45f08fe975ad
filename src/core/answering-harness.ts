import type { SessionStore } from './store/session-store.js';

/** A started harness as the harnesses started after it see it. */
export interface AnsweringHarness {
  /** The harness object itself (compared by identity). */
  harness: object;
  /** Its store: a harness created while this one answers keeps its sessions by using the same. */
  store: SessionStore;
  /** Stop answering outgoing calls (a newer harness took over); it stays usable otherwise. */
  supersede(): Promise<void>;
  /** Answer outgoing calls again (the harness that took over stopped). */
  resume(): Promise<void>;
}

interface Slot {
  /** Started harnesses, oldest first; the last one answers. */
  stack: AnsweringHarness[];
  warned: boolean;
}

/** On globalThis, so that every copy of the package (a module evaluated again, a second install) sees the same slot. */
const SLOT_KEY = Symbol.for('scenario-harness.answering-harness');

function slot(): Slot {
  const global = globalThis as Record<symbol, Slot | undefined>;
  return (global[SLOT_KEY] ??= { stack: [], warned: false });
}

/** The harness that answers this process's calls right now (started, not side by side), if any. */
export function answeringHarness(): AnsweringHarness | undefined {
  return slot().stack.at(-1);
}

/**
 * Make `next` the harness that answers, superseding the one before it (the module that creates
 * the harness, evaluated again by a dev server; a second harness a test starts for a while).
 * Returns whether one was superseded, and whether for the first time in this process (to warn once).
 */
export async function becomeAnswering(next: AnsweringHarness): Promise<{ superseded: boolean; firstTime: boolean }> {
  const state = slot();
  const previous = state.stack.at(-1);
  if (previous?.harness === next.harness) return { superseded: false, firstTime: false };
  state.stack = [...state.stack.filter((entry) => entry.harness !== next.harness), next];
  if (previous === undefined) return { superseded: false, firstTime: false };
  await previous.supersede();
  const firstTime = !state.warned;
  state.warned = true;
  return { superseded: true, firstTime };
}

/** `harness` stopped: it leaves the stack, and if it was answering, the one it superseded answers again. */
export async function leaveAnswering(harness: object): Promise<void> {
  const state = slot();
  const wasAnswering = state.stack.at(-1)?.harness === harness;
  state.stack = state.stack.filter((entry) => entry.harness !== harness);
  if (wasAnswering) await state.stack.at(-1)?.resume();
}
