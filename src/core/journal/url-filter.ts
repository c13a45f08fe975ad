import { starGlob } from '../engine/glob-matcher.js';

/**
 * The longest `url` a journal filter may have (`GET /__harness__/journal?url=`, `getCalls`, the
 * client's `calls()`): as long as the longest URL most servers take, and a bound on the work one
 * filter may ask of every entry of a journal.
 */
export const MAX_URL_FILTER_LENGTH = 2048;

/** Why `url` cannot be a journal filter (too long), or `undefined` when it can. */
export function urlFilterProblem(url: string): string | undefined {
  if (url.length <= MAX_URL_FILTER_LENGTH) return undefined;
  return `"url" has ${url.length} characters, more than the ${MAX_URL_FILTER_LENGTH} a URL filter may have. Filter on a shorter part of the URL: a substring ("/v1/charges") or a pattern with * ("*/v1/charges")`;
}

/**
 * A journal filter's `url` as a test of an entry's URL: a substring, or with `*` (any run of
 * characters) a pattern the whole URL must match, in one pass over the URL.
 */
export function compileUrlFilter(url: string): (entryUrl: string) => boolean {
  if (!url.includes('*')) return (entryUrl) => entryUrl.includes(url);
  const glob = starGlob(url);
  return (entryUrl) => glob.exec(entryUrl) !== undefined;
}
