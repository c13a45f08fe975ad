import { REDACTED } from './secret-names.js';

/** What `redactUrlQuery` replaced. */
export interface RedactedUrl {
  text: string;
  /** The query names whose values were replaced. */
  names: string[];
  /** The values replaced, decoded: secrets to search for elsewhere. */
  values: string[];
}

/** An absolute URL, or a relative one with a query (a `Location: /callback?code=…`). */
const URL_WITH_QUERY = /^(?:https?:\/\/[^\s?#]*|\/[^\s?#]*)\?[^\s]*$/i;

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * A URL (a `Location` header, a `next_url` in a JSON body) with the values of its secret-looking
 * query parameters replaced by `[redacted]`, the rest of it kept byte for byte; `undefined`
 * when the text is not a URL with a query, or has nothing to redact.
 */
export function redactUrlQuery(text: string, isSecret: (name: string) => boolean): RedactedUrl | undefined {
  if (!URL_WITH_QUERY.test(text)) return undefined;
  const question = text.indexOf('?');
  const hash = text.indexOf('#', question);
  const query = text.slice(question + 1, hash === -1 ? undefined : hash);
  const names: string[] = [];
  const values: string[] = [];
  const pairs = query.split('&').map((pair) => {
    const equals = pair.indexOf('=');
    if (equals === -1) return pair;
    const name = decode(pair.slice(0, equals));
    if (!isSecret(name)) return pair;
    names.push(name);
    values.push(decode(pair.slice(equals + 1)));
    return `${pair.slice(0, equals)}=${REDACTED}`;
  });
  if (names.length === 0) return undefined;
  return { text: `${text.slice(0, question + 1)}${pairs.join('&')}${hash === -1 ? '' : text.slice(hash)}`, names, values };
}
