import type { Mock } from '../types.js';
import { DefinitionError } from './definition-error.js';
import { compileGlob, type GlobPart } from './glob-matcher.js';
import { toStatelessRegExp } from './string-match.js';

/**
 * A compiled `Mock.url`. A static pattern (no `:param`, no `*`) is looked up by key;
 * the others are tested with their RegExp.
 */
export interface UrlPattern {
  /** Lower-cased `protocol//host[:port]`, or `undefined` when the pattern matches any origin. */
  origin: string | undefined;
  /** The path for a static pattern (trailing slash removed), else `undefined`. */
  staticPath: string | undefined;
  /** Params of the URL, or `undefined` when it does not match. */
  match(origin: string, pathname: string, href: string): Record<string, string> | undefined;
  /**
   * How specific the pattern is, as text: of two mocks with as many match keys, the one whose
   * `rank` sorts later wins (`urlRank`). Computed here, once, so a call compares two strings.
   */
  rank: string;
}

const ABSOLUTE = /^(https?):\/\/([^/?#]+)(\/[^?#]*)?$/i;
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The params of a URL that has none: shared, frozen. */
export const NO_PARAMS: Record<string, string> = Object.freeze(Object.create(null) as Record<string, string>);

/**
 * One letter per path segment from the left, then one for the origin; a later letter is more
 * specific, as routers rank routes: a segment written out (`f`) beats one with a `:param` and
 * text (`e`), a bare `:param` (`d`), the path's end (`c`: `/a` beats `/a/*` on `/a/`), a `*` with
 * text (`b`) and a bare `*` (`a`). Then the origin: written (`c`), a glob (`b`), any (`a`).
 * `/movie/popular` → `ffcc` beats `/movie/:id` → `fdcc`, whichever is defined first.
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/mock-format.md#which-mock-answers
 */
function urlRank(originPart: string | undefined, pathPart: string, anyOrigin: boolean): string {
  const segments = pathPart === '/' ? [] : (pathPart.startsWith('/') ? pathPart.slice(1) : pathPart).split('/');
  const letters = segments.map((segment) => {
    const parts = globParts(segment, true);
    if (parts.some((part) => 'star' in part)) return parts.every((part) => 'star' in part) ? 'a' : 'b';
    if (parts.some((part) => 'param' in part)) return parts.length === 1 ? 'd' : 'e';
    return 'f';
  });
  const origin = anyOrigin || originPart === undefined ? 'a' : originPart.includes('*') ? 'b' : 'c';
  return `${letters.join('')}c${origin}`;
}

/**
 * A RegExp cannot be read segment by segment: it ranks like a path whose first segment is a `*`
 * with text, below every pattern that writes out its first segment (a literal or a `:param`) and
 * above those that start with a bare `*` (`https://api.x.com/*`, `*\/v1/charges`).
 */
const REGEX_RANK = 'b';

/** `/a/b/` and `/a/b` are the same endpoint. */
export function trimTrailingSlash(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** `{ source, flags }` from a scenario file → a RegExp; an invalid pattern names `url.regex`. */
function regexFromData({ source, flags }: { source: string; flags?: string }): RegExp {
  try {
    return toStatelessRegExp(source, flags);
  } catch (error) {
    throw new DefinitionError('url.regex', `is not a valid regular expression (${(error as Error).message})`);
  }
}

/** `*` matches anything (slashes included), `:name` one path segment (in a path only). */
function globParts(text: string, allowParams: boolean): GlobPart[] {
  return text
    .split(/(\*|:[A-Za-z_][A-Za-z0-9_]*)/)
    .filter((part) => part !== '')
    .map((part): GlobPart => (part === '*' ? { star: true } : allowParams && part.startsWith(':') && PARAM_NAME.test(part.slice(1)) ? { param: part.slice(1) } : { literal: part }));
}

/**
 * Compile a URL pattern: absolute (`https://api.x.com/users/:id`), path-only (`/v1/charges`),
 * any-origin glob (`*\/v1/charges`), or a RegExp (or its data form `{ regex }`) tested against the whole URL.
 * Everything that could fail fails here, at harness creation.
 */
export function compileUrlPattern(url: Mock['url']): UrlPattern {
  if (typeof url === 'object') {
    const regex = url instanceof RegExp ? toStatelessRegExp(url.source, url.flags) : regexFromData(url.regex);
    return {
      origin: undefined,
      staticPath: undefined,
      rank: REGEX_RANK,
      match: (_origin, _pathname, href) => {
        const found = regex.exec(href);
        return found === null ? undefined : (found.groups ? Object.assign(Object.create(null), found.groups) : NO_PARAMS);
      },
    };
  }
  if (/[?#]/.test(url)) {
    throw new DefinitionError('url', `${JSON.stringify(url)} has a query or fragment: match query parameters with "match.query" instead`);
  }
  let originPart: string | undefined;
  let pathPart: string;
  const absolute = ABSOLUTE.exec(url);
  if (absolute !== null) {
    originPart = `${absolute[1]!.toLowerCase()}://${absolute[2]!.toLowerCase()}`;
    pathPart = absolute[3] ?? '/';
  } else if (url.startsWith('/') || url.startsWith('*')) {
    pathPart = url;
  } else {
    throw new DefinitionError('url', `${JSON.stringify(url)} is not a URL pattern: use an absolute http(s) URL ("https://api.example.com/users/:id"), a path ("/v1/charges"), a glob ("*/v1/charges") or a RegExp`);
  }
  pathPart = trimTrailingSlash(pathPart);
  const duplicate = [...pathPart.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]).find((name, i, all) => all.indexOf(name) !== i);
  if (duplicate !== undefined) throw new DefinitionError('url', `${JSON.stringify(url)} names the parameter ":${duplicate}" twice`);

  const isStatic = !pathPart.includes('*') && !/:[A-Za-z_]/.test(pathPart) && (originPart === undefined || !originPart.includes('*'));
  if (isStatic) {
    const staticPath = pathPart;
    return {
      origin: originPart,
      staticPath,
      rank: urlRank(originPart, staticPath, false),
      match: (origin, pathname) =>
        (originPart === undefined || origin === originPart) && trimTrailingSlash(pathname) === staticPath ? NO_PARAMS : undefined,
    };
  }

  // Linear-time matching (glob-matcher.ts): a glob must not backtrack on a long URL.
  const glob = compileGlob([...(originPart === undefined ? [] : globParts(originPart, false)), ...globParts(pathPart, true)], { optionalTrailingSlash: true });
  // Path-only globs that start with '*' test origin + path, so '*/v1/charges' means "any origin".
  const testsOrigin = originPart !== undefined || pathPart.startsWith('*');
  const hostIsStatic = originPart !== undefined && !originPart.includes('*');
  return {
    origin: hostIsStatic ? originPart : undefined,
    staticPath: undefined,
    rank: urlRank(originPart, pathPart, originPart === undefined),
    match: (origin, pathname) => {
      const found = glob.exec(testsOrigin ? origin + pathname : pathname);
      if (found === undefined) return undefined;
      if (glob.params.length === 0) return NO_PARAMS;
      const params: Record<string, string> = Object.create(null);
      glob.params.forEach((name, i) => (params[name] = decode(found[i]!)));
      return params;
    },
  };
}
