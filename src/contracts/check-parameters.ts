import { coerceScalar, schemaTypes } from './coerce-from-text.js';
import { explainSchemaErrors } from './explain-schema-errors.js';
import { fieldKey, fieldPath } from './field-path.js';
import { child, isRecord, type Json, type Located } from './json-pointer.js';
import { operationLabel, type Finding, type OperationContext } from './operation-context.js';
import { operationParameters } from './operation-parameters.js';
import { readOnce } from './read-once.js';
import type { SchemaError } from './schema-validators.js';

/** What a call sends as parameters: its URL, its headers, the values of the documented path's `{params}`, and (Swagger 2 `formData`) its form fields. */
export interface CallParameters {
  url: URL;
  headers: Headers;
  pathValues: Readonly<Record<string, string>>;
  form?: Json;
}

/** Headers OpenAPI ignores as parameters: the media types and security schemes say them. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
/** A Swagger 2 parameter's own keywords that are JSON Schema's too (the rest, `required` and `in` above all, are not). */
const SWAGGER_KEYWORDS = ['type', 'format', 'items', 'enum', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'pattern', 'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'multipleOf'];
const PLACES: Record<string, string> = { path: 'path', query: 'query', header: 'headers', formData: 'body' };

function valuesOf(parameter: Json, call: CallParameters): string[] | undefined {
  const name = String(parameter.name);
  switch (parameter.in) {
    case 'path':
      return call.pathValues[name] === undefined ? [] : [call.pathValues[name]!];
    case 'query':
      return call.url.searchParams.getAll(name);
    case 'header': {
      if (IGNORED_HEADERS.has(name.toLowerCase())) return undefined;
      const value = call.headers.get(name);
      return value === null ? [] : [value];
    }
    case 'formData': {
      if (call.form === undefined) return undefined;
      const value = call.form[name];
      return value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(String);
    }
    default:
      // Cookies, and places no version defines.
      return undefined;
  }
}

/** How an array parameter's items are joined in one value (`a,b`), or `undefined` when each item is a value of its own (`?a=1&a=2`). */
function delimiterOf(parameter: Json, swagger: boolean): string | undefined {
  if (swagger) return ({ csv: ',', ssv: ' ', tsv: '\t', pipes: '|', multi: undefined } as Record<string, string | undefined>)[String(parameter.collectionFormat ?? 'csv')];
  if (parameter.style === 'spaceDelimited') return ' ';
  if (parameter.style === 'pipeDelimited') return '|';
  // `form` (the query's default) explodes unless told not to; `simple` (path, header) is comma-separated.
  const style = parameter.style ?? (parameter.in === 'query' ? 'form' : 'simple');
  return style === 'form' && parameter.explode !== false ? undefined : ',';
}

/** The parameter's schema: OpenAPI 3's `schema`, or one built from the Swagger 2 parameter's own keywords (`built`). */
function schemaOf(context: OperationContext, parameter: Located<Json>): { schema: Located; built: boolean } | undefined {
  const { document, dialect } = context.contract;
  if (dialect === 'swagger2') {
    const built = Object.fromEntries(SWAGGER_KEYWORDS.filter((key) => parameter.value[key] !== undefined).map((key) => [key, parameter.value[key]]));
    return { schema: { value: built, pointer: parameter.pointer }, built: true };
  }
  if (parameter.value.schema === undefined) return undefined;
  return { schema: child(document, parameter, 'schema'), built: false };
}

/** How one parameter's text is read and checked: what the document says of it, read once. */
interface ParameterPlan {
  schema: Located;
  built: boolean;
  /** The schema's types; an object-valued parameter is not checked. */
  types: string[];
  /** For an array: its items' types, and how one value joins them (`undefined`: each item is a value of its own). */
  array?: { itemTypes: string[]; delimiter: string | undefined };
}

const plansOf = new WeakMap<Located<Json>, ParameterPlan | undefined>();

function planOf(context: OperationContext, parameter: Located<Json>): ParameterPlan | undefined {
  return readOnce(plansOf, parameter, () => {
    const { document, dialect } = context.contract;
    const found = schemaOf(context, parameter);
    if (found === undefined) return undefined;
    const types = schemaTypes(document, found.schema);
    if (!types.includes('array')) return { ...found, types };
    const items = child(document, found.schema, 'items');
    return { ...found, types, array: { itemTypes: isRecord(items.value) ? schemaTypes(document, items) : [], delimiter: delimiterOf(parameter.value, dialect === 'swagger2') } };
  });
}

function validateParameter(context: OperationContext, plan: ParameterPlan, value: unknown): SchemaError[] {
  return plan.built ? context.validators.validateBuilt(plan.schema.pointer, plan.schema.value as Json, value) : context.validators.validate(plan.schema.pointer, value);
}

/**
 * The call's parameters against the operation's: each required one is there (path, query,
 * header; Swagger 2 form fields), and each value, read as its schema's type (`10` as an integer
 * for `type: integer`, `a,b` as an array), fits the schema. Cookies, object-valued parameters
 * and the headers OpenAPI leaves to media types and security schemes are not checked.
 */
export function checkParameters(context: OperationContext, call: CallParameters): Finding[] {
  const findings: Finding[] = [];
  for (const parameter of operationParameters(context)) {
    const values = valuesOf(parameter.value, call);
    if (values === undefined) continue;
    const name = String(parameter.value.name);
    const field = `request.${PLACES[String(parameter.value.in)]}${fieldKey(name)}`;
    if (values.length === 0) {
      if (parameter.value.required === true) findings.push({ field, message: `missing: ${operationLabel(context)} requires this ${parameter.value.in === 'formData' ? 'form field' : `${String(parameter.value.in)} parameter`}` });
      continue;
    }
    const plan = planOf(context, parameter);
    if (plan === undefined || plan.types.includes('object')) continue;
    let value: unknown;
    if (plan.array !== undefined) {
      const { itemTypes, delimiter } = plan.array;
      const texts = delimiter !== undefined && values.length === 1 ? values[0]!.split(delimiter) : values;
      value = texts.map((text) => coerceScalar(text, itemTypes));
    } else {
      value = coerceScalar(values[0]!, plan.types);
    }
    for (const misfit of explainSchemaErrors(validateParameter(context, plan, value), value)) findings.push({ field: fieldPath(field, misfit.pointer), message: misfit.message });
  }
  return findings;
}
