import { trimTrailingSlash } from './url-pattern.js';

/** What mock lookup reads from a call's URL. */
export interface UrlParts {
  readonly origin: string;
  readonly pathname: string;
  readonly href: string;
  /** The pathname as mocks are indexed: without a trailing slash. */
  readonly path: string;
  /** `origin + path`: the key of the mocks with a full static URL. */
  readonly key: string;
}

const partsByUrl = new WeakMap<URL, UrlParts>();

/**
 * The parts of a URL that mock lookup reads, derived once per URL object.
 * @note URL getters build a new string on each read, and a new string is hashed again by every
 * Map it is looked up in; these strings are made once, so their hashes are computed once too.
 * Intercepted calls to the same URL share one URL object (`parsedUrl`), so they share these.
 */
export function urlParts(url: URL): UrlParts {
  let parts = partsByUrl.get(url);
  if (parts === undefined) {
    const { origin, pathname, href } = url;
    const path = trimTrailingSlash(pathname);
    parts = { origin, pathname, href, path, key: origin + path };
    partsByUrl.set(url, parts);
  }
  return parts;
}
