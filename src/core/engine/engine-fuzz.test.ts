import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { StringMatch } from '../types.js';
import { compileBodyMatch } from './body-match.js';
import { DefinitionError } from './definition-error.js';
import { compileStringMatch } from './string-match.js';
import { compileTemplate, type TemplateContext } from './template.js';
import { compileUrlPattern } from './url-pattern.js';

/** Compiling may refuse a definition, but only with a DefinitionError; anything else is a bug. */
function compileOrRefuse<T>(compile: () => T): T | undefined {
  try {
    return compile();
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return undefined;
  }
}

const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'a.b', 'items[]', ''));
const segment = fc.oneof(key, fc.constantFrom('0', '1', '-1', 'length'));
const source = fc.constantFrom('params', 'query', 'headers', 'body', 'state', 'variant', 'nope', '');
const template = fc.tuple(source, fc.array(segment, { maxLength: 4 }), fc.constantFrom('', ' ')).map(([s, path, pad]) => `{{${pad}${[s, ...path].join('.')}${pad}}}`);
const templateString = fc.array(fc.oneof(template, fc.string({ maxLength: 6 }), fc.constantFrom('{{', '}}', '{', '}')), { maxLength: 5 }).map((parts) => parts.join(''));
/** JSON with templates and awkward keys anywhere inside. */
const definitionValue = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), templateString, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(key, tie('value'), { maxKeys: 3 })),
})).value;

const safeHeaderValue = fc.string({ unit: 'grapheme-ascii', maxLength: 10 }).map((v) => v.replace(/[\r\n\0]/g, '').trim());
const context = fc.record({
  params: fc.dictionary(key, fc.string({ maxLength: 6 }), { maxKeys: 3 }),
  query: fc.array(fc.tuple(key, fc.string({ maxLength: 6 })), { maxLength: 3 }),
  headers: fc.array(fc.tuple(fc.constantFrom('x-a', 'content-type', 'x-harness-test-id'), safeHeaderValue), { maxLength: 3 }),
  body: fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 4 }), fc.string()),
  state: fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
  variant: fc.option(fc.string({ maxLength: 6 }), { nil: undefined }),
}).map(({ params, query, headers, body, state, variant }): TemplateContext => {
  const url = new URL('https://api.x.test/p');
  for (const [name, value] of query) url.searchParams.append(name, value);
  return { params, url, headers: new Headers(headers), body, state: Object.assign(Object.create(null), state), variant };
});

test('templates: compiling any JSON either works or names the field; evaluating never throws', () => {
  fc.assert(
    fc.property(definitionValue, fc.array(context, { minLength: 1, maxLength: 3 }), (value, contexts) => {
      const compiled = compileOrRefuse(() => compileTemplate(value, 'response.body'));
      for (const c of contexts) compiled?.evaluate(c);
    }),
    { numRuns: 500 },
  );
  expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
});

const stringMatch: fc.Arbitrary<StringMatch> = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom(/a/, /^x/gy, /\d/i, /(?<n>b)/),
  fc.record({ equals: fc.string() }),
  fc.record({ contains: fc.string() }),
  fc.record({ startsWith: fc.string() }),
  fc.record({ endsWith: fc.string() }),
  fc.record({ regex: fc.record({ source: fc.string({ maxLength: 6 }), flags: fc.constantFrom('', 'i', 'gy', 'zz') }) }),
);
/** A body pattern: JSON with string matchers at some leaves. */
const bodyPattern = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), stringMatch, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(key, tie('value'), { maxKeys: 3 })),
})).value;

test('body matchers: any pattern against any JSON body answers true or false, never throws', () => {
  fc.assert(
    fc.property(bodyPattern, fc.array(fc.oneof(fc.jsonValue(), fc.string()), { maxLength: 4 }), (pattern, bodies) => {
      const matcher = compileOrRefuse(() => compileBodyMatch(pattern, 'match.body'));
      for (const body of bodies) if (matcher) expect(typeof matcher.test(body)).toBe('boolean');
      // A body always matches the pattern that is itself (no matchers inside plain JSON).
      for (const body of bodies) expect(compileBodyMatch(body, 'match.body').test(structuredClone(body))).toBe(true);
    }),
    { numRuns: 400 },
  );
});

test('string matchers: any matcher against any string answers true or false, never throws', () => {
  fc.assert(
    fc.property(stringMatch, fc.array(fc.string({ unit: 'binary', maxLength: 20 }), { maxLength: 4 }), (match, values) => {
      const predicate = compileOrRefuse(() => compileStringMatch(match, 'match.query.q'));
      for (const value of values) if (predicate) expect(typeof predicate(value)).toBe('boolean');
    }),
    { numRuns: 400 },
  );
});

test('URL patterns: any pattern string compiles or is refused; matching any URL never throws', () => {
  const pattern = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.array(fc.constantFrom('https://api.x.test', 'http://*', '*', '/', 'users', ':id', ':id', ':__proto__', '%', '?', '#', '.', '(', '['), { maxLength: 6 }).map((p) => p.join('')),
  );
  fc.assert(
    fc.property(pattern, fc.webUrl({ withQueryParameters: true, withFragments: true }), (text, href) => {
      const compiled = compileOrRefuse(() => compileUrlPattern(text));
      const url = new URL(href);
      const params = compiled?.match(url.origin, url.pathname, url.href);
      if (params !== undefined) expect(Object.getPrototypeOf(params)).toBe(null);
    }),
    { numRuns: 400 },
  );
});
