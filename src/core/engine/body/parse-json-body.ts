import { nestsDeeperThan } from './nests-deeper-than.js';
import type { ParsedBody } from './parse-request-body.js';

/**
 * How deep a call's JSON body may nest and still be read as JSON. Deeper (no API sends that; an
 * attack does) it is kept as its text: matchers, templates and `setState` then see a string, never
 * a structure whose copy or serialisation would overflow the stack (a 5,000-deep body copied into
 * state used to make every `GET /__harness__/state` of its test answer 500).
 */
export const MAX_JSON_BODY_DEPTH = 256;

/**
 * A body as JSON when it parses (and nests at most {@link MAX_JSON_BODY_DEPTH} deep), else as
 * the text itself (XML, plain text, a JSON typo). Any content type is tried, as before form and
 * multipart bodies were parsed: apps send JSON as `text/plain` more often than one would think.
 * @note `JSON.parse` makes a `"__proto__"` key an ordinary own key, so the parsed body cannot
 * reach `Object.prototype`.
 */
export function parseJsonBody(text: string): ParsedBody {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { format: 'text', value: text };
  }
  return nestsDeeperThan(value, MAX_JSON_BODY_DEPTH) ? { format: 'text', value: text, tooDeep: true } : { format: 'json', value };
}
