import type { ParsedBody } from './parse-request-body.js';

/**
 * A body as JSON when it parses, else as the text itself (XML, plain text, a JSON typo).
 * Any content type is tried, as before form and multipart bodies were parsed: apps send JSON
 * as `text/plain` more often than one would think.
 * @note `JSON.parse` makes a `"__proto__"` key an ordinary own key, so the parsed body cannot
 * reach `Object.prototype`.
 */
export function parseJsonBody(text: string): ParsedBody {
  try {
    return { format: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { format: 'text', value: text };
  }
}
