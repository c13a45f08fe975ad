import { expect, test } from 'vitest';
import type { Json } from './json-pointer.js';
import { toJsonSchemaDialect } from './schema-dialect.js';

test('a schema used in several places (a YAML alias) is rewritten once and stays shared', () => {
  const shared: Json = { type: 'string', nullable: true };
  const wide: Json = { properties: { a: shared, b: shared } };
  const document: Json = { openapi: '3.0.3', components: { schemas: { Wide: wide, Again: wide } } };
  const rewritten = toJsonSchemaDialect(document, 'openapi30') as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
  const { Wide, Again } = rewritten.components.schemas;
  expect(Wide).toBe(Again);
  expect(Wide!.properties.a).toEqual({ type: ['string', 'null'] });
  expect(Wide!.properties.a).toBe(Wide!.properties.b);
  // The caller's document is left as it was.
  expect(shared).toEqual({ type: 'string', nullable: true });
});

/** The distinct objects and arrays under `value`, each counted once however often it is used. */
function distinctObjects(value: unknown, seen = new Set<object>()): number {
  if (typeof value !== 'object' || value === null || seen.has(value)) return seen.size;
  seen.add(value);
  for (const item of Object.values(value)) distinctObjects(item, seen);
  return seen.size;
}

test('nesting shared nodes costs what is written, not what it expands to', () => {
  // 6 levels of 8 references each: 8^6 places, 13 objects.
  let node: Json = { type: 'integer', nullable: true };
  for (let level = 0; level < 6; level++) node = { properties: Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((key) => [key, node])) };
  const document = { openapi: '3.0.3', components: { schemas: { Deep: node } } };
  const rewritten = toJsonSchemaDialect(document, 'swagger2');
  // One more: the leaf's type, now the array ['integer', 'null'].
  expect(distinctObjects(rewritten)).toBe(distinctObjects(document) + 1);
  let walked: unknown = (rewritten as { components: { schemas: { Deep: Json } } }).components.schemas.Deep;
  for (let level = 0; level < 6; level++) walked = (walked as { properties: { h: unknown } }).properties.h;
  expect(walked).toEqual({ type: ['integer', 'null'] });
});

test('an object that contains itself ends', () => {
  const node: Json = { type: 'object', nullable: true, properties: {} };
  (node.properties as Json).self = node;
  const rewritten = toJsonSchemaDialect({ openapi: '3.0.3', components: { schemas: { Node: node } } }, 'openapi30') as { components: { schemas: { Node: Json } } };
  expect(rewritten.components.schemas.Node.type).toEqual(['object', 'null']);
});
