import { GLOBAL_DISPATCHER_SLOTS, createHarnessDispatcher, type DispatcherLike, type HarnessDispatcherOptions } from './undici-dispatcher.js';

type Slots = Record<symbol, DispatcherLike | undefined>;

export interface InstalledDispatcher {
  readonly dispatcher: DispatcherLike;
  /** The dispatcher a call no mock answers goes to, for a handler of the given shape. */
  fallback(newStyle: boolean): DispatcherLike;
  /** Put back what each slot held before `install`. */
  uninstall(): void;
  /**
   * True when the app replaced the global dispatcher after `start()` (`setGlobalDispatcher`).
   * The replacement is adopted as the new fallback and the harness's dispatcher put back.
   */
  readopt(): boolean;
}

/**
 * Make sure Node's bundled undici has loaded and filled the global slot with its own Agent, so
 * there is a real dispatcher to hand unanswered calls to.
 * @note Node loads its bundled undici on the first `fetch` call, and undici's global.js creates
 * the default Agent then. A `data:` URL is fetched without any network access.
 */
export async function ensureDefaultDispatcher(fetch: typeof globalThis.fetch): Promise<void> {
  if ((globalThis as unknown as Slots)[GLOBAL_DISPATCHER_SLOTS[0]] !== undefined) return;
  try {
    await (await fetch('data:,')).arrayBuffer();
  } catch {
    // A replaced fetch that cannot load data: URLs: the fallback is then created lazily (see `fallback`).
  }
}

/** Put the harness's dispatcher in the global slots (those that exist), keeping what was there. */
export function installDispatcher(options: Omit<HarnessDispatcherOptions, 'fallback'>): InstalledDispatcher {
  const slots = globalThis as unknown as Slots;
  /** The slots the harness wrote. */
  const written = new Set<symbol>();
  let [legacy, modern] = GLOBAL_DISPATCHER_SLOTS.map((slot) => slots[slot]);
  const dispatcher = createHarnessDispatcher({ ...options, fallback: (newStyle) => fallback(newStyle) });

  function fallback(newStyle: boolean): DispatcherLike {
    const chosen = newStyle ? (modern ?? legacy) : (legacy ?? modern);
    if (chosen === undefined) {
      throw new Error(
        'scenario-harness found no undici dispatcher to pass an unanswered call to (the global dispatcher slot was empty when the harness started). Call setGlobalDispatcher(new Agent()) from the undici package before harness.start().',
      );
    }
    return chosen;
  }

  for (const slot of GLOBAL_DISPATCHER_SLOTS) {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, slot);
    // The `.2` slot exists only once undici ≥ 7.27 has run; a later undici 8 that fills it is re-adopted by `readopt`.
    if (descriptor === undefined && slot !== GLOBAL_DISPATCHER_SLOTS[0]) continue;
    written.add(slot);
    if (descriptor !== undefined && !descriptor.writable && !descriptor.configurable) {
      throw new Error(`the global undici dispatcher slot ${String(slot)} is read-only and non-configurable`);
    }
    // The attributes undici itself uses (lib/global.js), so a later setGlobalDispatcher() can still write.
    Object.defineProperty(globalThis, slot, { value: dispatcher, writable: true, enumerable: false, configurable: descriptor?.configurable ?? false });
  }

  return {
    dispatcher,
    fallback,
    uninstall() {
      // What each slot held last: the dispatcher from before start(), or one the app set since (adopted by readopt).
      for (const slot of written) slots[slot] = slot === GLOBAL_DISPATCHER_SLOTS[0] ? legacy : modern;
    },
    readopt() {
      let replaced = false;
      for (const slot of GLOBAL_DISPATCHER_SLOTS) {
        const current = slots[slot];
        if (current === dispatcher || current === undefined) continue;
        replaced = true;
        if (slot === GLOBAL_DISPATCHER_SLOTS[0]) legacy = current;
        else modern = current;
        written.add(slot);
        slots[slot] = dispatcher;
      }
      return replaced;
    },
  };
}
