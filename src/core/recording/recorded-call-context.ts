import { AsyncLocalStorage } from 'node:async_hooks';

const REGISTRY_KEY = Symbol.for('scenario-harness.recorded-call');

type Registry = { storage: AsyncLocalStorage<true> };

/**
 * Marks the work a layer does to pass on a call its test records, so that the socket guard lets
 * exactly the connections that work opens leave the machine (issue 23, item 9). A count of
 * recordings in flight let every connection out while any test recorded: another test's own
 * undici `Client` reached the network. Undici opens its connection in an async continuation of
 * the dispatch, so an async context is what reaches it; a flag set around the call would not.
 * @note The second AsyncLocalStorage beside the test ID's (test-context.ts): it carries a
 * different fact with a different extent (one pass-through, not one inbound request), and it
 * costs nothing until a test records. Kept on globalThis for the same reason as the test ID's:
 * two copies of this module must agree.
 */
const registry: Registry = ((globalThis as Record<symbol, unknown>)[REGISTRY_KEY] as Registry | undefined) ??
  ((globalThis as Record<symbol, unknown>)[REGISTRY_KEY] = { storage: new AsyncLocalStorage<true>() } satisfies Registry) as Registry;

/** Run `passOn` (a recorded call on its way to the real upstream) so the connections it opens pass the socket guard. */
export function runRecordedCall<T>(passOn: () => T): T {
  return registry.storage.run(true, passOn);
}

/** True inside `runRecordedCall`: the connection being opened carries a call its test records. */
export function isRecordedCall(): boolean {
  return registry.storage.getStore() === true;
}
