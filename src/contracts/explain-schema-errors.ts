import { pointerSegment, isRecord } from './json-pointer.js';
import type { SchemaError } from './schema-validators.js';

/** One way a value does not fit: where in the value (a JSON pointer, `''` for the value itself) and what was expected there. */
export interface Misfit {
  pointer: string;
  message: string;
}

type TemplateKind = 'exact' | 'embedded';
const EXACT_TEMPLATE = /^\{\{[^{}]*\}\}$/;
const TEMPLATE = /\{\{[^{}]*\}\}/;
/** Keywords that combine schemas: their failure is said once, at the value, instead of once per branch. */
const COMPOSITE = new Set(['oneOf', 'anyOf', 'not']);

/**
 * Where `value` holds a template: a string that is exactly one template (`{{body.amount}}`)
 * becomes the value it names, of any type; a string with a template inside is a string whose
 * text is not known until the call.
 */
function templates(value: unknown, pointer = '', found = new Map<string, TemplateKind>()): Map<string, TemplateKind> {
  if (typeof value === 'string') {
    if (EXACT_TEMPLATE.test(value)) found.set(pointer, 'exact');
    else if (TEMPLATE.test(value)) found.set(pointer, 'embedded');
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => templates(item, `${pointer}/${i}`, found));
  } else if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) templates(item, `${pointer}/${pointerSegment(key)}`, found);
  }
  return found;
}

const within = (pointer: string, ancestor: string) => pointer === ancestor || pointer.startsWith(`${ancestor}/`);

function at(value: unknown, pointer: string): unknown {
  let current = value;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    current = isRecord(current) || Array.isArray(current) ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function expectation(error: SchemaError, actual: unknown): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `expected ${Array.isArray(params.type) ? params.type.join(' or ') : String(params.type)}, got ${describe(actual)}`;
    case 'required':
      return 'missing: the schema requires it';
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'not in the schema, which allows no other properties';
    case 'enum':
      return `expected one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, got ${describe(actual)}`;
    case 'const':
      return `expected ${JSON.stringify(params.allowedValue)}, got ${describe(actual)}`;
    case 'format':
      return `expected a string in the format "${String(params.format)}", got ${describe(actual)}`;
    case 'pattern':
      return `expected a string matching /${String(params.pattern)}/, got ${describe(actual)}`;
    case 'oneOf':
      return params.passingSchemas === null ? 'expected exactly one of the schemas in its "oneOf" to fit, but none does' : 'expected exactly one of the schemas in its "oneOf" to fit, but several do';
    case 'anyOf':
      return 'expected one of the schemas in its "anyOf" to fit, but none does';
    default:
      return `expected the value to ${(error.message ?? 'fit the schema').replace(/^must /, '').replace(/\bNOT\b/, 'not')}, got ${describe(actual)}`;
  }
}

/**
 * ajv's errors for `value`, as misfits a person can act on, with templates taken into account:
 * an exact template fits any value; a string with a template inside fits any string. When a
 * `oneOf`/`anyOf` fails, it is said once at its value rather than once per branch it tried; one
 * over a value holding a template is given the benefit of the doubt (the template could fit a branch).
 */
export function explainSchemaErrors(errors: SchemaError[], value: unknown): Misfit[] {
  // The common case, a value that fits: nothing to explain, no need to look for templates.
  if (errors.length === 0) return [];
  const found = templates(value);
  const templated = [...found];
  const hidden = new Set<number>();
  errors.forEach((error, i) => {
    const pointer = error.instancePath;
    // `if` fails with its `then`/`else`, whose own errors say what is wrong.
    if (error.keyword === 'if') hidden.add(i);
    const exact = templated.some(([path, kind]) => kind === 'exact' && within(pointer, path));
    const embedded = found.get(pointer) === 'embedded' && error.keyword !== 'type';
    if (exact || embedded) hidden.add(i);
    if (!COMPOSITE.has(error.keyword)) return;
    // ajv reports a composite's branch errors just before it; their schema paths are the branch's own.
    const parent = error.schemaPath.slice(0, error.schemaPath.lastIndexOf('/'));
    for (let j = i - 1; j >= 0 && within(errors[j]!.instancePath, pointer); j--) {
      if (errors[j]!.schemaPath.startsWith(`${error.schemaPath}/`) || !errors[j]!.schemaPath.startsWith(`${parent}/`)) hidden.add(j);
    }
    if (templated.some(([path]) => within(path, pointer))) hidden.add(i);
  });
  const misfits: Misfit[] = [];
  const seen = new Set<string>();
  errors.forEach((error, i) => {
    if (hidden.has(i)) return;
    const params = error.params as Record<string, unknown>;
    const extra = typeof params.missingProperty === 'string' ? params.missingProperty : typeof params.additionalProperty === 'string' ? params.additionalProperty : typeof params.unevaluatedProperty === 'string' ? params.unevaluatedProperty : undefined;
    const pointer = extra === undefined ? error.instancePath : `${error.instancePath}/${pointerSegment(extra)}`;
    const message = expectation(error, at(value, error.instancePath));
    if (seen.has(`${pointer} ${message}`)) return;
    seen.add(`${pointer} ${message}`);
    misfits.push({ pointer, message });
  });
  return misfits;
}
