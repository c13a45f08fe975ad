import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Json } from './json-pointer.js';

/** One way a value does not fit its schema: ajv's error, as it gives it. */
export type SchemaError = ErrorObject;

/** Validates values against the schemas of one document, each compiled once, on first use. */
export interface SchemaValidators {
  /**
   * The errors of `value` against the schema at `pointer` (`/components/schemas/Pet`); empty
   * when it fits. Throws when that schema does not compile (an invalid `pattern`, say).
   */
  validate(pointer: string, value: unknown): SchemaError[];
  /**
   * The errors of `value` against a schema built outside the document (a Swagger 2 parameter's
   * type, which sits on the parameter itself beside keywords JSON Schema reads otherwise),
   * compiled once per `key`.
   */
  validateBuilt(key: string, schema: Json, value: unknown): SchemaError[];
}

// ajv-formats is CommonJS: its plugin is the module itself (and its `default`).
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;
let documents = 0;

/**
 * The validator the contract checks use (every error, JSON Schema 2020-12, the formats below),
 * lenient on what API documents and LLM requests' schemas carry beside JSON Schema.
 */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    // OpenAPI schemas carry keywords JSON Schema does not know (example, xml, discriminator, x-…).
    strict: false,
    validateSchema: false,
    // Patterns in API documents are written for many regex engines, not only for the `u` flag's strict one.
    unicodeRegExp: false,
    logger: false,
  });
  addFormats(ajv);
  return ajv;
}

/**
 * One validator per document: the whole document is added to ajv under its own ID, and each
 * schema is compiled as a `$ref` into it, so `$ref`s (recursive ones too) resolve as written.
 * Formats: ajv-formats' (date, date-time, email, uuid, uri, …, and OpenAPI's int32, int64,
 * float, double, byte, password, binary); a format neither knows is not checked.
 */
export function createSchemaValidators(document: Json): SchemaValidators {
  const ajv = createAjv();
  const id = `contract:${documents++}`;
  ajv.addSchema(document, id);
  const compiled = new Map<string, ValidateFunction>();
  return {
    validate(pointer, value) {
      let validate = compiled.get(pointer);
      if (validate === undefined) {
        validate = ajv.compile({ $ref: `${id}#${pointer.split('/').map((part) => encodeURIComponent(part).replace(/%7E/gi, '~')).join('/')}` });
        compiled.set(pointer, validate);
      }
      return validate(value) ? [] : [...(validate.errors ?? [])];
    },
    validateBuilt(key, schema, value) {
      let validate = compiled.get(`built:${key}`);
      if (validate === undefined) {
        validate = ajv.compile(schema);
        compiled.set(`built:${key}`, validate);
      }
      return validate(value) ? [] : [...(validate.errors ?? [])];
    },
  };
}
