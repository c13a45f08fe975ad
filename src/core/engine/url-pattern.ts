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
}

const ABSOLUTE = /^(https?):\/\/([^/?#]+)(\/[^?#]*)?$/i;
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The params of a URL that has none: shared, frozen. */
export const NO_PARAMS: Record<string, string> = Object.freeze(Object.create(null) as Record<string, string>);

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
