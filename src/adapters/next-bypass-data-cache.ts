/** `fetch` once Next.js has patched it (next/dist/server/lib/patch-fetch.js). */
type NextPatchedFetch = typeof fetch & { __nextPatched?: unknown; _nextOriginalFetch?: unknown };

const REGISTRY_KEY = Symbol.for('scenario-harness.next-data-cache-bypass');

function isNextPatched(value: unknown): value is NextPatchedFetch & { _nextOriginalFetch: typeof fetch } {
  return typeof value === 'function' && (value as NextPatchedFetch).__nextPatched === true && typeof (value as NextPatchedFetch)._nextOriginalFetch === 'function';
}

/**
 * Keep Next.js's Data Cache out of every `fetch` while the harness intercepts, so a cached answer
 * never hides a scenario switch or leaks from one test to another, and keep the interception
 * beneath Next's fetch patch when Next resets and re-patches `fetch` (`next dev`, after a server
 * edit). `pristine` is `globalThis.fetch` before the harness started, `intercepted` after.
 *
 * @note Next wraps `globalThis.fetch` once (a `Symbol.for('next-patch')` flag) in a layer that
 * reads and writes the Data Cache (`cache: 'force-cache'`, `next.revalidate`, segment
 * `fetchCache`) and keeps what it wrapped as `_nextOriginalFetch`: request memoisation over our
 * interception. Whatever Next assigns, callers get that inner layer.
 * @see https://nextjs.org/docs/app/guides/caching#data-cache
 */
export function nextBypassDataCache(pristine: typeof fetch, intercepted: typeof fetch): void {
  const global = globalThis as typeof globalThis & { [REGISTRY_KEY]?: () => typeof fetch };
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  if (descriptor?.get !== undefined && descriptor.get === global[REGISTRY_KEY]) return;
  if (descriptor !== undefined && !descriptor.configurable) return;

  const settle = (value: typeof fetch): typeof fetch => {
    // @note next dev puts back the fetch it saw at startup after a server edit (router-server.js `resetFetch`).
    if (value === pristine) return intercepted;
    if (!isNextPatched(value)) return value;
    const beneath = value._nextOriginalFetch;
    // Keeps Next's markers (`__nextPatched`, `__nextGetStaticStore`) for tools that look for them.
    return Object.assign((input: RequestInfo | URL, init?: RequestInit) => beneath(input, init), value);
  };
  let current = settle(globalThis.fetch);
  const get = () => current;
  global[REGISTRY_KEY] = get;
  Object.defineProperty(globalThis, 'fetch', {
    configurable: true,
    enumerable: descriptor?.enumerable ?? true,
    get,
    set: (value: typeof fetch) => void (current = settle(value)),
  });
}
