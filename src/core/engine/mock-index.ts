import type { CompiledMock } from './compile-mock.js';
import type { UrlParts } from './url-parts.js';

const NONE: readonly CompiledMock[] = [];
const NO_LISTS: readonly (readonly CompiledMock[])[] = [NONE];

/**
 * One layer's mocks (a scenario, or a variant's overlay), indexed so that a call looks only at
 * plausible candidates: static URLs by origin + path, static paths by path, patterns with a
 * fixed origin by origin, and only the rest by scanning. Lookup cost does not grow with the
 * number of mocks on other endpoints.
 */
export interface MockIndex {
  readonly size: number;
  /** Every mock of the layer, in definition order (for near-miss text, never the hot path). */
  readonly all: readonly CompiledMock[];
  /** The candidate lists for a URL, in no particular order: `specificity`, `url.rank` and `order` on each mock rank them. */
  lookup(url: UrlParts): readonly (readonly CompiledMock[])[];
}

function push(map: Map<string, CompiledMock[]>, key: string, mock: CompiledMock): void {
  const list = map.get(key);
  if (list) list.push(mock);
  else map.set(key, [mock]);
}

/** Build the index of one layer once, at harness creation. */
export function createMockIndex(mocks: readonly CompiledMock[]): MockIndex {
  const byOriginAndPath = new Map<string, CompiledMock[]>();
  const byPath = new Map<string, CompiledMock[]>();
  const patternsByOrigin = new Map<string, CompiledMock[]>();
  const patternsAnyOrigin: CompiledMock[] = [];

  for (const mock of mocks) {
    const { origin, staticPath } = mock.url;
    if (staticPath !== undefined && origin !== undefined) push(byOriginAndPath, `${origin}${staticPath}`, mock);
    else if (staticPath !== undefined) push(byPath, staticPath, mock);
    else if (origin !== undefined) push(patternsByOrigin, origin, mock);
    else patternsAnyOrigin.push(mock);
  }

  // A layer of full static URLs only (the common one) answers with one list, made once per URL.
  const onlyExact = byPath.size === 0 && patternsByOrigin.size === 0 && patternsAnyOrigin.length === 0;
  const exactAlone = new Map([...byOriginAndPath].map(([key, list]) => [key, [list] as const]));

  return {
    size: mocks.length,
    all: mocks,
    lookup({ origin, path, key }) {
      if (onlyExact) return exactAlone.get(key) ?? NO_LISTS;
      const lists: (readonly CompiledMock[])[] = [];
      const exact = byOriginAndPath.size > 0 ? byOriginAndPath.get(key) : undefined;
      if (exact) lists.push(exact);
      const anyOrigin = byPath.size > 0 ? byPath.get(path) : undefined;
      if (anyOrigin) lists.push(anyOrigin);
      const patterns = patternsByOrigin.size > 0 ? patternsByOrigin.get(origin) : undefined;
      if (patterns) lists.push(patterns);
      if (patternsAnyOrigin.length > 0) lists.push(patternsAnyOrigin);
      return lists.length > 0 ? lists : NO_LISTS;
    },
  };
}
