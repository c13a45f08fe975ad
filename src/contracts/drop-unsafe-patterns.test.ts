import { expect, test } from 'vitest';
import { dropUnsafePatterns } from './drop-unsafe-patterns.js';

const NESTED = '^(\\d+)+$';

test('a schema pattern, a Swagger 2 parameter pattern and a patternProperties key that could backtrack are removed, each named by its JSON pointer', () => {
  const shared = { type: 'string', pattern: '^(a+)+$' };
  const document = {
    paths: { '/posts/{slug}': { get: { parameters: [{ name: 'slug', in: 'path', type: 'string', pattern: NESTED }] } } },
    components: {
      schemas: {
        Post: { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' }, one: shared, two: shared } },
        Tags: { type: 'object', patternProperties: { '^(x+)+$': { type: 'string' }, '^x-[a-z]+$': { type: 'string' } } },
      },
    },
  };
  const warnings = dropUnsafePatterns(document);
  expect(warnings.map((warning) => warning.slice(0, warning.indexOf(':')))).toEqual([
    '#/paths/~1posts~1{slug}/get/parameters/0/pattern',
    '#/components/schemas/Post/properties/one/pattern',
    '#/components/schemas/Tags/patternProperties/^(x+)+$',
  ]);
  expect(warnings[0]).toBe(
    `#/paths/~1posts~1{slug}/get/parameters/0/pattern: the pattern /${NESTED}/ can backtrack catastrophically (an input can match it in many overlapping ways: one that does not match takes polynomial or exponential time), so values are not checked against it. Fix it in the document (anchor it with ^, no nested quantifiers such as (a+)+, [^-]+ rather than .+ before a "-") to have them checked.`,
  );
  // Gone where the validator would run them (the shared schema once, for both places); safe ones stay.
  expect(document.paths['/posts/{slug}'].get.parameters[0]).not.toHaveProperty('pattern');
  expect(shared).toEqual({ type: 'string' });
  expect(document.components.schemas.Tags.patternProperties).toEqual({ '^x-[a-z]+$': { type: 'string' } });
  expect(document.components.schemas.Post.properties.code.pattern).toBe('^[A-Z]{3}$');
});

test('examples, defaults, enums and constants are data: a "pattern" field in them is left alone', () => {
  const document = { components: { schemas: { Rule: { type: 'object', properties: { pattern: { type: 'string' } }, example: { pattern: NESTED }, default: { pattern: NESTED }, enum: [{ pattern: NESTED }] } } } };
  expect(dropUnsafePatterns(document)).toEqual([]);
  expect(document.components.schemas.Rule.example).toEqual({ pattern: NESTED });
});

test('a pattern that is not a valid regular expression is left for the validator to report', () => {
  const document = { components: { schemas: { Broken: { type: 'string', pattern: '(' } } } };
  expect(dropUnsafePatterns(document)).toEqual([]);
  expect(document.components.schemas.Broken.pattern).toBe('(');
});
