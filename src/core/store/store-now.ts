import type { JournalEntry } from '../journal/journal-entry.js';
import type { JournalBounds, SessionSnapshot, SessionStore } from './session-store.js';

/** Synchronous forms of a store's hot-path methods, for a store that holds everything in memory. */
export interface StoreNow {
  read(testId: string): SessionSnapshot | undefined;
  /** Returns how many entries were dropped to keep the journals under `bounds.maxTotalBytes`. */
  appendCall(testId: string, entry: JournalEntry, maxEntries: number, bounds?: JournalBounds): number;
}

const STORE_NOW = Symbol('scenario-harness.storeNow');

interface Offer {
  now: StoreNow;
  /** The methods they stand for: a store whose methods were replaced since is not gone around. */
  read: SessionStore['read'];
  appendCall: SessionStore['appendCall'];
}

/**
 * Let the harness read a session and append to a journal without awaiting: every promise an
 * intercepted call creates costs a microtask, and on Node 22 also AsyncLocalStorage's promise
 * hooks (Node 24 and 26 run none; see `CallListener.answerNow`).
 * @note A non-enumerable own property: a wrapper that spreads the store to observe or change a
 * method does not copy it, so the wrapper's methods are never bypassed.
 */
export function offerStoreNow(store: SessionStore, now: StoreNow): void {
  const offer: Offer = { now, read: store.read, appendCall: store.appendCall };
  Object.defineProperty(store, STORE_NOW, { value: offer, enumerable: false });
}

/** The store's synchronous methods, when it offers them and its own methods are still the ones they stand for. */
export function storeNowOf(store: SessionStore): StoreNow | undefined {
  const offer = Object.prototype.hasOwnProperty.call(store, STORE_NOW) ? (store as unknown as Record<symbol, Offer | undefined>)[STORE_NOW] : undefined;
  return offer !== undefined && store.read === offer.read && store.appendCall === offer.appendCall ? offer.now : undefined;
}
