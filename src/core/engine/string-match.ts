import type { StringMatch } from '../types.js';
import { DefinitionError } from './definition-error.js';

/** A compiled `StringMatch`: true when the value matches. */
export type StringPredicate = (value: string) => boolean;

const MATCHER_KEYS = new Set(['equals', 'contains', 'startsWith', 'endsWith', 'regex']);

/** True for the object forms of `StringMatch` (`{ contains: 'x' }`), which body matching treats as matchers. */
export function isStringMatcherObject(value: unknown): value is Exclude<StringMatch, string | RegExp> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof RegExp) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && MATCHER_KEYS.has(keys[0]!);
}

/**
 * A RegExp that keeps no state between calls.
 * @note `g` and `y` make `test()` advance `lastIndex`, so the same input would match on one
 * call and fail on the next. Matching is a yes/no question: those flags are dropped.
 */
export function toStatelessRegExp(source: string, flags = ''): RegExp {
  return new RegExp(source, flags.replace(/[gy]/g, ''));
}

/** Compile a `StringMatch` once, at harness creation; `field` names it in errors. */
export function compileStringMatch(match: StringMatch, field: string): StringPredicate {
  if (typeof match === 'string') return (value) => value === match;
  if (match instanceof RegExp) {
    const regex = toStatelessRegExp(match.source, match.flags);
    return (value) => regex.test(value);
  }
  if ('equals' in match) return (value) => value === match.equals;
  if ('contains' in match) return (value) => value.includes(match.contains);
  if ('startsWith' in match) return (value) => value.startsWith(match.startsWith);
  if ('endsWith' in match) return (value) => value.endsWith(match.endsWith);
  if ('regex' in match) {
    let regex: RegExp;
    try {
      regex = toStatelessRegExp(match.regex.source, match.regex.flags);
    } catch (error) {
      throw new DefinitionError(`${field}.regex`, `is not a valid regular expression (${(error as Error).message})`);
    }
    return (value) => regex.test(value);
  }
  throw new DefinitionError(field, 'is not a string matcher: use a string, a RegExp, or one of { equals | contains | startsWith | endsWith | regex }');
}
