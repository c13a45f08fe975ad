import { isStringMatcherObject } from '../core/engine/string-match.js';
import type { MockMatch } from '../core/types.js';
import { fieldKey } from './field-path.js';
import { child, isRecord, resolveRef, type Json, type Located } from './json-pointer.js';
import { operationParameters } from './operation-parameters.js';
import { operationLabel, type Finding, type OperationContext } from './operation-context.js';

/** Headers OpenAPI does not describe as parameters (the media types and security schemes say them), and our own. */
const UNDECLARED_HEADERS = new Set(['accept', 'content-type', 'authorization', 'cookie']);
const MAX_DEPTH = 32;


/** Header names of the document's API-key security schemes (`X-API-Key`). */
function apiKeyHeaders(context: OperationContext): string[] {
  const { document } = context.contract;
  const schemes = isRecord(document.components) ? document.components.securitySchemes : document.securityDefinitions;
  if (!isRecord(schemes)) return [];
  return Object.values(schemes).flatMap((scheme) => (isRecord(scheme) && scheme.type === 'apiKey' && scheme.in === 'header' && typeof scheme.name === 'string' ? [scheme.name.toLowerCase()] : []));
}

const listed = (names: string[]) => (names.length === 0 ? 'none' : names.join(', '));

/** The property names a schema declares, through `$ref`, `allOf`/`oneOf`/`anyOf`; `open` when it takes any name. */
function properties(document: Json, schema: Located, depth = 0): { names: Map<string, Located>; open: Located | boolean } {
  const resolved = resolveRef(document, schema);
  const names = new Map<string, Located>();
  let open: Located | boolean = false;
  if (!isRecord(resolved.value) || depth > MAX_DEPTH) return { names, open: true };
  const value = resolved.value;
  const own = child(document, resolved, 'properties');
  if (isRecord(own.value)) for (const name of Object.keys(own.value)) names.set(name, { value: own.value[name], pointer: `${own.pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}` });
  if (value.additionalProperties === true || isRecord(value.additionalProperties)) open = isRecord(value.additionalProperties) ? { value: value.additionalProperties, pointer: `${resolved.pointer}/additionalProperties` } : true;
  let composite = false;
  for (const keyword of ['allOf', 'oneOf', 'anyOf']) {
    const members = value[keyword];
    if (!Array.isArray(members)) continue;
    composite = true;
    members.forEach((member, i) => {
      const inner = properties(document, { value: member, pointer: `${resolved.pointer}/${keyword}/${i}` }, depth + 1);
      for (const [name, located] of inner.names) if (!names.has(name)) names.set(name, located);
      if (inner.open !== false && open === false) open = inner.open;
    });
  }
  // A schema that declares no property at all is a free-form object (or not an object): any name fits.
  if (names.size === 0 && !composite && open === false) open = true;
  return { names, open };
}

/** The fields `match.body` names that the request schema does not: `match.body.metadata.order_idd`. */
function bodyFields(document: Json, value: unknown, schema: Located, field: string, depth: number): Finding[] {
  if (depth > MAX_DEPTH || value instanceof RegExp || isStringMatcherObject(value)) return [];
  const resolved = resolveRef(document, schema);
  if (Array.isArray(value)) {
    const items = isRecord(resolved.value) ? resolved.value.items : undefined;
    return isRecord(items) ? value.flatMap((item, i) => bodyFields(document, item, { value: items, pointer: `${resolved.pointer}/items` }, `${field}[${i}]`, depth + 1)) : [];
  }
  if (!isRecord(value)) return [];
  const { names, open } = properties(document, resolved);
  return Object.entries(value).flatMap(([key, inner]) => {
    const declared = names.get(key) ?? (typeof open === 'object' ? open : undefined);
    if (declared !== undefined) return bodyFields(document, inner, declared, `${field}${fieldKey(key)}`, depth + 1);
    if (open === true) return [];
    return [{ field: `${field}${fieldKey(key)}`, message: `expected a field the request body declares (${listed([...names.keys()])})` }];
  });
}

/** The request body's schema: OpenAPI 3's `requestBody` (JSON first, then form, then the first), Swagger 2's body or form parameters. */
function requestSchema(context: OperationContext, parameterList: Json[]): Located | undefined {
  const { document } = context.contract;
  if (context.contract.dialect === 'swagger2') {
    const index = parameterList.findIndex((p) => p.in === 'body');
    if (index >= 0) return { value: parameterList[index]!.schema, pointer: '' };
    const form = parameterList.filter((p) => p.in === 'formData');
    return form.length === 0 ? undefined : { value: { type: 'object', properties: Object.fromEntries(form.map((p) => [p.name, {}])) }, pointer: '' };
  }
  const content = child(document, child(document, context.operation, 'requestBody'), 'content');
  if (!isRecord(content.value)) return undefined;
  const types = Object.keys(content.value);
  const type = types.find((t) => /json/.test(t)) ?? types.find((t) => /x-www-form-urlencoded/.test(t)) ?? types.find((t) => /multipart/.test(t)) ?? types[0];
  if (type === undefined) return undefined;
  const media = child(document, content, type);
  return isRecord(media.value) ? child(document, media, 'schema') : undefined;
}

/**
 * `match` names only what the operation declares: query parameters, header parameters (besides
 * Accept, Content-Type, Authorization, Cookie and API-key headers, which OpenAPI describes
 * elsewhere), and request body fields at every depth (a schema with `additionalProperties`, or
 * with no properties at all, takes any name). Values are not checked: a matcher is not a value.
 */
export function checkMatch(context: OperationContext, match: MockMatch | undefined): Finding[] {
  if (match === undefined) return [];
  const findings: Finding[] = [];
  const parameterList = operationParameters(context).map((parameter) => parameter.value);
  const declared = (place: string) => parameterList.filter((p) => p.in === place).map((p) => String(p.name));
  const query = declared('query');
  for (const name of Object.keys(match.query ?? {})) {
    if (!query.includes(name)) findings.push({ field: `match.query${fieldKey(name)}`, message: `expected a query parameter ${operationLabel(context)} declares (${listed(query)})` });
  }
  const headers = declared('header');
  const known = new Set([...headers.map((name) => name.toLowerCase()), ...apiKeyHeaders(context), ...UNDECLARED_HEADERS]);
  for (const name of Object.keys(match.headers ?? {})) {
    if (!known.has(name.toLowerCase()) && !name.toLowerCase().startsWith('x-harness-')) findings.push({ field: `match.headers${fieldKey(name)}`, message: `expected a header parameter ${operationLabel(context)} declares (${listed(headers)})` });
  }
  if (match.body !== undefined) {
    const schema = requestSchema(context, parameterList);
    if (schema === undefined) findings.push({ field: 'match.body', message: `expected no body: ${operationLabel(context)} declares no request body` });
    else findings.push(...bodyFields(context.contract.document, match.body, schema, 'match.body', 0));
  }
  return findings;
}
