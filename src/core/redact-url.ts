/** What stands in for a password wherever a URL is shown. */
const HIDDEN = '***';

/**
 * `url` as a message may show it: the password of its user information replaced by `***`
 * (`redis://user:***@host:6379`), the rest as typed. Works on strings that are no valid URL too
 * (`redis//user:secret@host`, `user:secret@host:6379`): a mistyped URL is the one an error
 * message quotes, and it holds the same secret.
 *
 * @note Plain string work, not `new URL()`: a password with an unencoded `#`, `/` or `?` makes
 * the URL parser read the password as the port, path or fragment and report no password at all,
 * and a string with no `//` parses as a path. Everything from the start of the user information
 * to the last `@` is taken as user information, so a stray `@` later only hides more.
 *
 * @example
 * redactUrl('redis://app:s3cret@redis.internal:6379/0'); // 'redis://app:***@redis.internal:6379/0'
 * redactUrl('redis://redis.internal:6379');              // unchanged: no password
 */
export function redactUrl(url: string): string {
  const at = url.lastIndexOf('@');
  if (at === -1) return url;
  // The user information starts after a scheme and its slashes (redis://, or mistyped: redis//,
  // redis:/), else at the start (user:secret@host): slashes inside a password start nothing.
  const scheme = /^\s*(?:[a-z][a-z0-9+.-]*:?)?\/+/i.exec(url);
  const start = scheme !== null && scheme[0].length <= at ? scheme[0].length : 0;
  const colon = url.indexOf(':', start);
  // No ":" before the "@": a user name alone (redis://app@host), which is no secret.
  if (colon === -1 || colon > at || colon === at - 1) return url;
  return `${url.slice(0, colon + 1)}${HIDDEN}${url.slice(at)}`;
}
