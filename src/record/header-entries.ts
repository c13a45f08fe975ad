import type { RecordedHeaders } from './recorded-exchange.js';

/** An HTTP field name (RFC 9110 token): HTTP/2 pseudo-headers such as `:authority` (in Chrome's HAR files) are not. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** True for a pair a `Headers` object (and so a scenario file) accepts. */
function isValidHeader(name: string, value: string): boolean {
  if (!FIELD_NAME.test(name)) return false;
  try {
    new Headers([[name, value]]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Recorded headers as `[lower-case name, value]` pairs in the order given, one pair per value
 * (a repeated `set-cookie` stays several pairs). `Headers` joins repeated values except
 * `set-cookie`, which it keeps apart (`getSetCookie`). Pairs no `Headers` would accept
 * (pseudo-headers, line breaks) are left out.
 */
export function headerEntries(headers: RecordedHeaders): [string, string][] {
  const out: [string, string][] = [];
  if (headers instanceof Headers) {
    for (const [name, value] of headers) if (name !== 'set-cookie') out.push([name, value]);
    for (const cookie of headers.getSetCookie()) out.push(['set-cookie', cookie]);
    return out;
  }
  if (Array.isArray(headers)) {
    for (const [name, value] of headers as readonly (readonly [string, string])[]) out.push([name.toLowerCase(), String(value)]);
    return out.filter(([name, value]) => isValidHeader(name, value));
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (value === undefined) continue;
    for (const one of typeof value === 'string' ? [value] : value) out.push([name.toLowerCase(), String(one)]);
  }
  return out.filter(([name, value]) => isValidHeader(name, value));
}
