import { REDACTED } from './secret-names.js';

/** What `redactXmlText` replaced: the names, and the values (secrets to search for elsewhere). */
export interface RedactedXml {
  text: string;
  names: string[];
  values: string[];
}

/** An element with text only (or CDATA): `<AccessToken>…</AccessToken>`, `<wsse:Password …>…</wsse:Password>`. Group 2 is the local name. */
const TEXT_ELEMENT = /<((?:[\w.-]+:)?([\w.-]+))(\s[^<>]*)?>(<!\[CDATA\[[\s\S]*?\]\]>|[^<]*)<\/\1\s*>/g;
/** An attribute: `password="…"`, `auth:token='…'`. Group 2 is the local name. */
const ATTRIBUTE = /(\s(?:[\w.-]+:)?([\w.-]+)\s*=\s*)(["'])([^"'<>]*)\3/g;

function content(raw: string): string {
  return raw.startsWith('<![CDATA[') ? raw.slice(9, -3) : raw;
}

/**
 * An XML or SOAP body (`<AccessToken>…</AccessToken>`, `<Password>`, a `token="…"` attribute)
 * with the text of its secret-looking elements and attributes replaced by `[redacted]`, the rest
 * kept byte for byte; `undefined` when there is nothing to redact. A regular expression, not a
 * parser: the body is not rebuilt, only the values of known names are cut out.
 */
export function redactXmlText(text: string, isSecret: (name: string) => boolean): RedactedXml | undefined {
  const names: string[] = [];
  const values: string[] = [];
  const take = (name: string, value: string): boolean => {
    if (value.trim() === '' || !isSecret(name)) return false;
    names.push(name);
    values.push(value);
    return true;
  };
  const elements = text.replace(TEXT_ELEMENT, (whole, tag: string, local: string, attributes: string | undefined, raw: string) => (take(local, content(raw)) ? `<${tag}${attributes ?? ''}>${REDACTED}</${tag}>` : whole));
  const out = elements.replace(ATTRIBUTE, (whole, before: string, local: string, quote: string, value: string) => (take(local, value) ? `${before}${quote}${REDACTED}${quote}` : whole));
  return names.length === 0 ? undefined : { text: out, names, values };
}
