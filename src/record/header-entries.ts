import type { RecordedHeaders } from './recorded-exchange.js';

/**
 * Recorded headers as `[lower-case name, value]` pairs in the order given, one pair per value
 * (a repeated `set-cookie` stays several pairs). `Headers` joins repeated values except
 * `set-cookie`, which it keeps apart (`getSetCookie`).
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
    return out;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (value === undefined) continue;
    for (const one of typeof value === 'string' ? [value] : value) out.push([name.toLowerCase(), String(one)]);
  }
  return out;
}
