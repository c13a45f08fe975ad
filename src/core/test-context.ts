import { AsyncLocalStorage } from 'node:async_hooks';

const REGISTRY_KEY = Symbol.for('scenario-harness.test-context');

type ContextRegistry = { storage: AsyncLocalStorage<string> };

/**
 * The one AsyncLocalStorage that carries the current test ID through an inbound request.
 * @note Kept on globalThis under a Symbol.for key: Next.js and test runners can load this
 * module twice, and both copies must see the same context.
 */
const registry: ContextRegistry = ((globalThis as Record<symbol, unknown>)[REGISTRY_KEY] as ContextRegistry | undefined) ??
  ((globalThis as Record<symbol, unknown>)[REGISTRY_KEY] = { storage: new AsyncLocalStorage<string>() } satisfies ContextRegistry) as ContextRegistry;

/** Run `fn` with `testId` as the current test ID for everything it starts, synchronously or not. */
export function runWithTestId<T>(testId: string, fn: () => T): T {
  return registry.storage.run(testId, fn);
}

/**
 * Make `testId` the current test ID for the rest of the current synchronous execution and
 * everything it starts. For hosts that offer a hook before a request's handler, not a wrapper
 * around it (a `node:http` diagnostics channel); prefer `runWithTestId` wherever a wrapper fits.
 * @see https://nodejs.org/api/async_context.html#asynclocalstorageenterwithstore
 */
export function enterTestId(testId: string): void {
  registry.storage.enterWith(testId);
}

/** The current test ID, or `undefined` outside `runWithTestId`. */
export function tryGetTestId(): string | undefined {
  return registry.storage.getStore();
}
