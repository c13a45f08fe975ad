import { isRecord, resolveRef, type Json, type Located } from './json-pointer.js';

const NUMERIC = /^-?(?:\d+|\d*\.\d+)(?:[eE][+-]?\d+)?$/;
const MAX_DEPTH = 32;

/** The JSON types a schema allows (`type`, through `$ref`s and `allOf`); empty when it does not say. */
export function schemaTypes(document: Json, schema: Located): string[] {
  const resolved = resolveRef(document, schema);
  if (!isRecord(resolved.value)) return [];
  const { type, allOf } = resolved.value;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.map(String);
  if (Array.isArray(allOf)) return allOf.flatMap((member, i) => schemaTypes(document, { value: member, pointer: `${resolved.pointer}/allOf/${i}` }));
  return [];
}

/**
 * A text as the value its schema reads it as: query, path and header parameters, and the fields
 * of a form body, travel as text, so `limit=10` is the integer 10 for `type: integer`. Text that
 * does not read as the type is left as it is, for the schema to say what was expected.
 */
export function coerceScalar(text: string, types: readonly string[]): unknown {
  if ((types.includes('integer') || types.includes('number')) && NUMERIC.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** A form body's fields (qs's nested objects and arrays of text) as their schema reads them. */
export function coerceFields(document: Json, schema: Located, value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return value;
  const resolved = resolveRef(document, schema);
  if (typeof value === 'string') return coerceScalar(value, schemaTypes(document, resolved));
  if (!isRecord(resolved.value)) return value;
  if (Array.isArray(value)) {
    const items = resolved.value.items;
    return isRecord(items) ? value.map((item) => coerceFields(document, { value: items, pointer: `${resolved.pointer}/items` }, item, depth + 1)) : value;
  }
  if (!isRecord(value)) return value;
  const properties = resolveRef(document, { value: resolved.value.properties, pointer: `${resolved.pointer}/properties` });
  const declared = isRecord(properties.value) ? properties.value : {};
  const coerced: Json = {};
  for (const [key, field] of Object.entries(value)) {
    const own = declared[key];
    coerced[key] = own === undefined ? field : coerceFields(document, { value: own, pointer: `${properties.pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}` }, field, depth + 1);
  }
  return coerced;
}
