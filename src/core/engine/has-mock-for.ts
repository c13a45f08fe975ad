import type { MockIndex } from './mock-index.js';
import { urlParts } from './url-parts.js';

/**
 * True when a mock of these layers takes `method` on `url` (its `match` criteria aside). Reads
 * nothing and advances nothing: a CORS preflight asks whether the call it announces would be
 * mocked, and asking must not use up a sequence step or write state.
 */
export function hasMockFor(url: URL, method: string, layers: readonly MockIndex[]): boolean {
  const parts = urlParts(url);
  for (const layer of layers) {
    for (const list of layer.lookup(parts)) {
      for (const mock of list) {
        if (mock.methods !== undefined && !mock.methods.has(method)) continue;
        if (mock.url.match(parts.origin, parts.pathname, parts.href) !== undefined) return true;
      }
    }
  }
  return false;
}
