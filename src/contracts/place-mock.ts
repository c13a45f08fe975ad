import { compileUrlPattern } from '../core/engine/url-pattern.js';
import type { Mock } from '../core/types.js';
import type { Contract } from './load-contract.js';
import { contractPaths, pathSegments, type ContractPath } from './contract-paths.js';

/** Where a mock's URL lands among the documents. */
export type Placement =
  /** A documented path: its operations are checked. */
  | { kind: 'path'; path: ContractPath }
  /** Under a document's server, but on no path it documents. */
  | { kind: 'unknown-path'; contracts: Contract[]; path: string }
  /** Not checked, for `reason`: under no document's servers, or a pattern that covers several paths. */
  | { kind: 'unchecked'; reason: string };

const ABSOLUTE = /^(https?):\/\/([^/?#]+)(\/[^?#]*)?$/i;
const PARAM = /:[A-Za-z_][A-Za-z0-9_]*/g;

/** How well a mock path's segments fit a documented path: literal = literal counts most (OpenAPI: concrete paths win). */
function fit(mockSegments: string[], path: ContractPath): number {
  if (mockSegments.length !== path.segments.length) return 0;
  let score = 0;
  for (const [i, segment] of path.segments.entries()) {
    const text = mockSegments[i]!;
    const hasParam = new RegExp(PARAM.source).test(text);
    if (segment.pattern === undefined) {
      if (hasParam || text !== segment.text) return 0;
      score += 2;
    } else if (/^:[A-Za-z_][A-Za-z0-9_]*$/.test(text) && /^\{[^}]+\}$/.test(segment.text)) {
      score += 1;
    } else if (segment.pattern.test(hasParam ? text.replace(PARAM, 'x1') : text)) {
      score += 1;
    } else {
      return 0;
    }
  }
  return score + 1;
}

/** A URL pattern without `*`, compared segment by segment with each document's paths under each server. */
function placeStatic(origin: string | undefined, path: string, contracts: readonly Contract[]): Placement {
  const segments = pathSegments(path);
  const under: Contract[] = [];
  let best: { path: ContractPath; score: number } | undefined;
  for (const contract of contracts) {
    for (const server of contract.servers) {
      if (origin !== undefined && server.origin !== undefined && origin !== server.origin) continue;
      const base = pathSegments(server.basePath);
      if (base.some((segment, i) => segments[i] !== segment)) continue;
      if (!under.includes(contract)) under.push(contract);
      const rest = segments.slice(base.length);
      for (const candidate of contractPaths(contract)) {
        const score = fit(rest, candidate);
        if (score > (best?.score ?? 0)) best = { path: candidate, score };
      }
    }
  }
  if (best !== undefined) return { kind: 'path', path: best.path };
  if (under.length > 0) return { kind: 'unknown-path', contracts: under, path };
  return { kind: 'unchecked', reason: 'under none of the documents\' servers' };
}

/** A glob or a RegExp: tested against one concrete URL of every documented path; it is checked when exactly one path answers. */
function placePattern(url: Mock['url'], contracts: readonly Contract[]): Placement {
  const pattern = compileUrlPattern(url);
  const matched = new Set<ContractPath>();
  for (const contract of contracts) {
    for (const server of contract.servers) {
      const origin = server.origin ?? 'https://api.example.invalid';
      for (const candidate of contractPaths(contract)) {
        // Two guesses per path parameter, a number and a word, for patterns that expect one or the other.
        for (const value of ['1', 'abc']) {
          const pathname = `${server.basePath}${candidate.template.replace(/\{[^}]+\}/g, value)}`;
          if (pattern.match(origin, pathname, `${origin}${pathname}`) !== undefined) matched.add(candidate);
        }
      }
    }
  }
  const [only, ...others] = matched;
  if (only !== undefined && others.length === 0) return { kind: 'path', path: only };
  if (only === undefined) return { kind: 'unchecked', reason: 'its URL pattern matches none of the documents\' paths' };
  const listed = [only, ...others].slice(0, 5).map((path) => path.template).join(', ');
  return { kind: 'unchecked', reason: `its URL pattern covers ${matched.size} documented paths (${listed}${matched.size > 5 ? ', …' : ''}): give it one path to have it checked` };
}

/**
 * Which documented path a mock's URL pattern answers for. A pattern with a literal origin and
 * path (`:params` allowed) is placed by its segments: under a server's origin and base path, it
 * is on a documented path or on none (an unknown operation); so is `*\/path` (any origin). Any
 * other glob (`*`) or a RegExp is placed only when it matches exactly one documented path.
 */
export function placeMock(url: Mock['url'], contracts: readonly Contract[]): Placement {
  // `*/v1/charges` is how a mock says "this path on any origin": placed like a path-only pattern.
  if (typeof url === 'string' && /^\*\/[^*]*$/.test(url)) return placeStatic(undefined, url.slice(1), contracts);
  if (typeof url !== 'string' || url.includes('*')) return placePattern(url, contracts);
  const absolute = ABSOLUTE.exec(url);
  if (absolute !== null) return placeStatic(`${absolute[1]!.toLowerCase()}://${absolute[2]!.toLowerCase()}`, absolute[3] ?? '/', contracts);
  return placeStatic(undefined, url, contracts);
}
