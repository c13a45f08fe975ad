import { REDACTED } from './secret-names.js';

/** What `redactUrlQuery` replaced. */
export interface RedactedUrl {
  text: string;
  /** The query names whose values were replaced. */
  names: string[];
  /** The values replaced, decoded: secrets to search for elsewhere. */
  values: string[];
}

/** An absolute URL, or a relative one, with a query or a fragment (a `Location: /callback?code=…`, an implicit-flow `#access_token=…`). */
const URL_WITH_PARAMS = /^(?:https?:\/\/[^\s?#]*|\/[^\s?#]*)(?:\?[^\s#]*)?(?:#\S*)?$/i;

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** `a=1&b=2` with the values of secret names replaced, collecting what was replaced. */
function redactPairs(params: string, isSecret: (name: string) => boolean, found: { names: string[]; values: string[] }): string {
  return params
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const name = decode(pair.slice(0, equals));
      if (!isSecret(name)) return pair;
      found.names.push(name);
      found.values.push(decode(pair.slice(equals + 1)));
      return `${pair.slice(0, equals)}=${REDACTED}`;
    })
    .join('&');
}

/**
 * A URL (a `Location` header, a `next_url` in a JSON body) with the values of its secret-looking
 * query parameters replaced by `[redacted]`, and those of its fragment too (OAuth's implicit
 * flow answers `#access_token=…&id_token=…`), the rest of it kept byte for byte; `undefined`
 * when the text is not such a URL, or has nothing to redact.
 */
export function redactUrlQuery(text: string, isSecret: (name: string) => boolean): RedactedUrl | undefined {
  if (!URL_WITH_PARAMS.test(text)) return undefined;
  const hash = text.indexOf('#');
  const question = text.indexOf('?');
  const hasQuery = question !== -1 && (hash === -1 || question < hash);
  if (!hasQuery && hash === -1) return undefined;
  const found = { names: [] as string[], values: [] as string[] };
  const base = text.slice(0, hasQuery ? question : hash);
  const query = hasQuery ? `?${redactPairs(text.slice(question + 1, hash === -1 ? undefined : hash), isSecret, found)}` : '';
  const fragment = hash === -1 ? '' : `#${redactPairs(text.slice(hash + 1), isSecret, found)}`;
  if (found.names.length === 0) return undefined;
  return { text: `${base}${query}${fragment}`, ...found };
}
