import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { expect, test } from 'vitest';
import { compileScenarios } from '../core/engine/compile-scenarios.js';
import { scenarioJsonSchema } from './scenario-json-schema.js';

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');
const validate = new Ajv({ allErrors: true }).compile(JSON.parse(read('schema.json')) as object);

test('the committed schema.json is what the zod schema generates (run `npm run build:schema` after changing it)', () => {
  expect(read('schema.json')).toBe(`${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
});

test.each(['examples/scenario-files/payments.yaml', 'examples/scenario-files/users.json'])('the example %s is valid by the JSON Schema and by zod', (path) => {
  const document = (path.endsWith('.json') ? JSON.parse(read(path)) : parse(read(path))) as Record<string, unknown>;
  expect(validate(document), JSON.stringify(validate.errors, null, 2)).toBe(true);
  const { $schema: _, ...scenarios } = document;
  expect(() => compileScenarios(scenarios)).not.toThrow();
});

const mock = (fields: Record<string, unknown>) => ({ s: { name: 'S', mocks: [{ url: '/x', response: {}, ...fields }] } });

test.each([
  ['a lower-case method and a method list', mock({ method: ['get', 'Post'] }), true],
  ['a URL RegExp in its data form', mock({ url: { regex: { source: '^https://', flags: 'i' } } }), true],
  ['every string matcher form', mock({ match: { query: { a: 'x', b: { equals: 'x' }, c: { contains: 'x' }, d: { startsWith: 'x' }, e: { endsWith: 'x' }, f: { regex: { source: 'x' } } } } }), true],
  ['a sequence instead of a response', { s: { name: 'S', mocks: [{ url: '/x', sequence: { responses: [{ status: 201 }], repeat: 'cycle' } }] } }, true],
  ['variants, a description and state', { s: { name: 'S', description: 'd', mocks: [], variants: { gold: { mocks: [{ url: '/x', response: {}, afterResponse: { setState: { 'a[]': 1 } } }] } } } }, true],
  ['an unknown method', mock({ method: 'FETCH' }), false],
  ['an unknown mock field', mock({ respose: {} }), false],
  ['both response and sequence', mock({ sequence: { responses: [{}] } }), false],
  ['a URL object that is not a regex', mock({ url: { pattern: '/x' } }), false],
  ['a matcher with two operators', mock({ match: { headers: { a: { contains: 'x', endsWith: 'y' } } } }), false],
  ['a status out of range', mock({ response: { status: 42 } }), false],
  ['a scenario without a name', { s: { mocks: [] } }, false],
  ['an unknown repeat mode', { s: { name: 'S', mocks: [{ url: '/x', sequence: { responses: [{}], repeat: 'forever' } }] } }, false],
])('the JSON Schema and zod agree: %s', (_, document, valid) => {
  expect(validate(document), JSON.stringify(validate.errors)).toBe(valid);
  let zodValid = true;
  try {
    compileScenarios(document);
  } catch {
    zodValid = false;
  }
  expect(zodValid).toBe(valid);
});

test('a $schema key is allowed beside the scenarios, for editors', () => {
  expect(validate({ $schema: './node_modules/scenario-harness/schema.json', ...mock({}) })).toBe(true);
});
