import { REDACTED } from './secret-names.js';

/** What `redactXmlText` replaced: the names, and the values (secrets to search for elsewhere). */
export interface RedactedXml {
  text: string;
  names: string[];
  values: string[];
}

/** An opening tag: `<AccessToken>`, `<wsse:Password Type="…">`. One character class for the name, so a long name cannot backtrack. */
const OPEN_TAG = /<([\w.:-]+)(\s[^<>]*)?>/g;
/** An attribute: `password="…"`, `auth:token='…'`. */
const ATTRIBUTE = /(\s([\w.:-]+)\s*=\s*)(["'])([^"'<>]*)\3/g;
const CDATA_OPEN = '<![CDATA[';
const CDATA_CLOSE = ']]>';

function localName(name: string): string {
  return name.slice(name.lastIndexOf(':') + 1);
}

/**
 * An XML or SOAP body (`<AccessToken>…</AccessToken>`, `<Password>`, a `token="…"` attribute)
 * with the text of its secret-looking elements (text or one CDATA section, no child elements)
 * and attributes replaced by `[redacted]`, the rest kept byte for byte; `undefined` when there
 * is nothing to redact. A scan, not a parser: the body is not rebuilt, and every character is
 * read a bounded number of times, so an odd body cannot make it slow.
 */
export function redactXmlText(text: string, isSecret: (name: string) => boolean): RedactedXml | undefined {
  const names: string[] = [];
  const values: string[] = [];
  const cut: [start: number, end: number][] = [];
  // The first `]]>` at or after a position, remembered: an unclosed CDATA is searched to the end once, not once per tag.
  let cdataClose = -2;
  let cdataFrom = 0;
  const nextCdataClose = (from: number) => {
    if (cdataClose === -2 || from < cdataFrom || (cdataClose !== -1 && from > cdataClose)) cdataClose = text.indexOf(CDATA_CLOSE, from);
    cdataFrom = from;
    return cdataClose;
  };
  for (const open of text.matchAll(OPEN_TAG)) {
    const name = open[1]!;
    if (!isSecret(localName(name))) continue;
    let start = open.index + open[0].length;
    let end: number;
    if (text.startsWith(CDATA_OPEN, start)) {
      const close = nextCdataClose(start + CDATA_OPEN.length);
      if (close === -1) continue;
      start += CDATA_OPEN.length;
      end = close;
      if (!text.startsWith(`</${name}`, end + CDATA_CLOSE.length)) continue;
    } else {
      end = text.indexOf('<', start);
      if (end === -1 || !text.startsWith(`</${name}`, end)) continue;
    }
    const value = text.slice(start, end);
    if (value.trim() === '') continue;
    names.push(localName(name));
    values.push(value);
    cut.push([start, end]);
  }
  let out = '';
  let at = 0;
  for (const [start, end] of cut) {
    out += `${text.slice(at, start)}${REDACTED}`;
    at = end;
  }
  out += text.slice(at);
  out = out.replace(ATTRIBUTE, (whole, before: string, name: string, quote: string, value: string) => {
    if (value.trim() === '' || !isSecret(localName(name))) return whole;
    names.push(localName(name));
    values.push(value);
    return `${before}${quote}${REDACTED}${quote}`;
  });
  return names.length === 0 ? undefined : { text: out, names, values };
}
