import { DefinitionError } from '../definition-error.js';
import { compileUrlPattern } from '../url-pattern.js';

/**
 * Which sockets a URL names, for a push, a close or a verification: the socket's own URL, or a
 * pattern as a socket mock's `url` (`wss://feed.test/v1/:room`, `*\/v1/stream`). A query in it
 * must be the socket's query exactly. A string says why `url` is no URL or pattern.
 */
export function socketUrlMatcher(url: string): ((socketUrl: string) => boolean) | string {
  const at = url.indexOf('?');
  const [base, query] = at === -1 ? [url, undefined] : [url.slice(0, at), url.slice(at)];
  let pattern: ReturnType<typeof compileUrlPattern>;
  try {
    pattern = compileUrlPattern(base.replace(/^ws(s?):\/\//i, 'http$1://'));
  } catch (error) {
    return error instanceof DefinitionError ? error.message : (error as Error).message;
  }
  return (socketUrl) => {
    if (socketUrl === url) return true;
    const http = new URL(socketUrl.replace(/^ws/i, 'http'));
    return (query === undefined || http.search === query) && pattern.match(http.origin.toLowerCase(), http.pathname, http.href) !== undefined;
  };
}
