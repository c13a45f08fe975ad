import { isDeepStrictEqual } from 'node:util';
import { describeStringMatch, describeValue, mismatch } from './describe-value.js';
import { compileStringMatch, isStringMatcherObject } from './string-match.js';

/** A compiled `match.body`: `test` says whether an actual body matches; `leaves` counts criteria for specificity. */
export interface BodyMatcher {
  /**
   * @param fieldsAreText The body is form or multipart fields, where every value is text:
   * a number or boolean in the definition then also matches its text (`5000` ↔ `'5000'`).
   */
  test(actual: unknown, fieldsAreText?: boolean): boolean;
  /** The first place where `actual` differs, as `match.body.amount: expected 5000, received 4000`; `undefined` when it matches. */
  explain(actual: unknown, fieldsAreText?: boolean): string | undefined;
  leaves: number;
}

/**
 * `5000` matches `'5000'` and `true` matches `'true'`: the text a form encoder (Stripe's, qs,
 * URLSearchParams) writes for that value with `String()`. Nothing looser: `'5000.00'` or
 * `'5e3'` are other texts.
 */
function isTextOf(actual: unknown, expected: unknown): boolean {
  return typeof actual === 'string' && (typeof expected === 'number' || typeof expected === 'boolean') && actual === String(expected);
}

/**
 * Compile a partial deep body match. Objects match when every listed key matches (other keys
 * are ignored); arrays match element by element and must have the same length; a `StringMatch`
 * (RegExp or `{ contains }`-style object) tests a string leaf; any other leaf must be equal,
 * except that in form and multipart fields a number or boolean also matches its text.
 */
export function compileBodyMatch(expected: unknown, field: string): BodyMatcher {
  if (expected instanceof RegExp || isStringMatcherObject(expected)) {
    const predicate = compileStringMatch(expected, field);
    const test = (actual: unknown) => (typeof actual === 'string' || typeof actual === 'number' || typeof actual === 'boolean') && predicate(String(actual));
    return { leaves: 1, test, explain: (actual) => (test(actual) ? undefined : mismatch(field, describeStringMatch(expected), actual)) };
  }
  if (Array.isArray(expected)) {
    const items = expected.map((item, i) => compileBodyMatch(item, `${field}[${i}]`));
    return {
      leaves: Math.max(1, items.reduce((sum, item) => sum + item.leaves, 0)),
      test: (actual, text) => Array.isArray(actual) && actual.length === items.length && items.every((item, i) => item.test(actual[i], text)),
      explain(actual, text) {
        if (!Array.isArray(actual)) return mismatch(field, `an array of ${items.length}`, actual);
        if (actual.length !== items.length) return `${field}: expected ${items.length} items, received ${actual.length}`;
        for (const [i, item] of items.entries()) {
          const reason = item.explain(actual[i], text);
          if (reason !== undefined) return reason;
        }
        return undefined;
      },
    };
  }
  if (typeof expected === 'object' && expected !== null) {
    const entries = Object.entries(expected).map(([key, value]) => [key, compileBodyMatch(value, `${field}.${key}`)] as const);
    return {
      leaves: Math.max(1, entries.reduce((sum, [, item]) => sum + item.leaves, 0)),
      test: (actual, text) =>
        typeof actual === 'object' &&
        actual !== null &&
        !Array.isArray(actual) &&
        entries.every(([key, item]) => Object.hasOwn(actual, key) && item.test((actual as Record<string, unknown>)[key], text)),
      explain(actual, text) {
        if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return mismatch(field, 'an object', actual);
        for (const [key, item] of entries) {
          if (!Object.hasOwn(actual, key)) return `${field}.${key}: missing`;
          const reason = item.explain((actual as Record<string, unknown>)[key], text);
          if (reason !== undefined) return reason;
        }
        return undefined;
      },
    };
  }
  const test = (actual: unknown, text = false) => isDeepStrictEqual(actual, expected) || (text && isTextOf(actual, expected));
  return { leaves: 1, test, explain: (actual, text) => (test(actual, text) ? undefined : mismatch(field, describeValue(expected), actual)) };
}
