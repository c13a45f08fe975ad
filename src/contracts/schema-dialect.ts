import type { Dialect } from './load-contract.js';
import { isRecord, type Json } from './json-pointer.js';

/** `nullable: true` (OpenAPI 3.0) or `x-nullable: true` (Swagger 2): the value may also be `null`. */
function allowNull(schema: Json): Json {
  const { nullable: _nullable, 'x-nullable': _xNullable, ...rest } = schema;
  if (typeof rest.type === 'string') {
    rest.type = [rest.type, 'null'];
    if (Array.isArray(rest.enum) && !rest.enum.includes(null)) rest.enum = [...rest.enum, null];
    return rest;
  }
  // No single type (a `$ref`, an `allOf`): "null, or else this". Written as if/then rather than
  // anyOf so that a value that is not null is told what is wrong inside it, not only "fits no branch".
  return { if: { not: { type: 'null' } }, then: rest };
}

/** Draft 4's `exclusiveMinimum: true` beside `minimum` is 2020-12's `exclusiveMinimum: <number>`. */
function exclusiveBound(schema: Json, exclusive: 'exclusiveMinimum' | 'exclusiveMaximum', bound: 'minimum' | 'maximum'): void {
  if (typeof schema[exclusive] !== 'boolean') return;
  if (schema[exclusive] === true && typeof schema[bound] === 'number') {
    schema[exclusive] = schema[bound];
    delete schema[bound];
  } else {
    delete schema[exclusive];
  }
}

/**
 * @param done What each object already visited became: an object the document uses in several
 * places (a YAML alias, a shared `$ref` target) is rewritten once and stays shared, so the
 * rewrite is linear in what is written, not in what it expands to (issue 37, item 7: 640 bytes
 * of aliases ran `check` out of memory). Recorded before its values are rewritten, so an object
 * that contains itself ends.
 */
function rewrite(value: unknown, dialect: Dialect, done: WeakMap<object, unknown>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (done.has(value)) return done.get(value);
  if (Array.isArray(value)) {
    const array: unknown[] = [];
    done.set(value, array);
    for (const item of value) array.push(rewrite(item, dialect, done));
    return array;
  }
  if (!isRecord(value)) return value;
  let object: Json = {};
  done.set(value, object);
  for (const [key, item] of Object.entries(value)) object[key] = rewrite(item, dialect, done);
  exclusiveBound(object, 'exclusiveMinimum', 'minimum');
  exclusiveBound(object, 'exclusiveMaximum', 'maximum');
  // Swagger 2's `file` is an upload or a download, not a JSON type.
  if (dialect === 'swagger2' && object.type === 'file') delete object.type;
  if (object.nullable === true || object['x-nullable'] === true) {
    object = allowNull(object);
    done.set(value, object);
  }
  return object;
}

/**
 * The document with its schemas written in JSON Schema 2020-12, the dialect the validator
 * compiles: OpenAPI 3.1 already is; OpenAPI 3.0 and Swagger 2 schemas are a draft-4 dialect
 * with `nullable` / `x-nullable` and boolean `exclusiveMinimum`/`exclusiveMaximum`.
 * @note Every object of the document is visited, not only schemas: the keywords rewritten only
 * ever hold booleans in a schema, so an object elsewhere (an example) is left as it is unless
 * it happens to carry `nullable: true`, and examples are never validated against.
 */
export function toJsonSchemaDialect(document: Json, dialect: Dialect): Json {
  return dialect === 'openapi31' ? document : (rewrite(document, dialect, new WeakMap()) as Json);
}
