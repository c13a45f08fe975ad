import type { MockResponse } from '../core/types.js';
import { explainSchemaErrors } from './explain-schema-errors.js';
import { fieldKey, fieldPath } from './field-path.js';
import { child, isRecord, type Located } from './json-pointer.js';
import { operationLabel, type Finding, type OperationContext } from './operation-context.js';
import { readOnce } from './read-once.js';

const EXACT_TEMPLATE = /^\{\{[^{}]*\}\}$/;

type DocumentedResponse = { code: string; response: Located } | { codes: string[] };
const responsesOf = new WeakMap<Located, Map<number, DocumentedResponse>>();

/** The documented response for a status: its own code, else its range (`4XX`), else `default`. */
function documentedResponse(context: OperationContext, status: number): DocumentedResponse {
  const byStatus = readOnce(responsesOf, context.operation, () => new Map<number, DocumentedResponse>());
  let found = byStatus.get(status);
  if (found === undefined) {
    found = readDocumentedResponse(context, status);
    byStatus.set(status, found);
  }
  return found;
}

function readDocumentedResponse(context: OperationContext, status: number): DocumentedResponse {
  const responses = child(context.contract.document, context.operation, 'responses');
  const codes = Object.keys(isRecord(responses.value) ? responses.value : {});
  const code = codes.find((c) => c === String(status)) ?? codes.find((c) => c.toUpperCase() === `${String(status)[0]}XX`) ?? codes.find((c) => c === 'default');
  return code === undefined ? { codes } : { code, response: child(context.contract.document, responses, code) };
}

/** What the mock sends, as the engine sends it: the body's kind and its content type (set, or the engine's default for it). */
function bodyOf(response: MockResponse): { field: string; value?: unknown; type: string; typeIsSet: boolean } | undefined {
  const set = Object.entries(response.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  const typed = (field: string, fallback: string, value?: unknown) => ({ field, value, type: (set ?? fallback).split(';')[0]!.trim().toLowerCase(), typeIsSet: set !== undefined });
  if (response.bodyBase64 !== undefined) return typed('bodyBase64', 'application/octet-stream');
  if (response.stream !== undefined) {
    if (response.stream.events !== undefined) return typed('stream', 'text/event-stream');
    return typed('stream', (response.stream.chunks ?? []).every((chunk) => typeof chunk === 'string') ? 'text/plain' : 'application/x-ndjson');
  }
  if (response.body === undefined) return undefined;
  return typed('body', typeof response.body === 'string' ? 'text/plain' : 'application/json', response.body);
}

type DocumentedMedia = { type: string; schemaPointer: string | undefined }[];
const mediaOf = new WeakMap<Located, DocumentedMedia>();

/** The documented media types of a response: OpenAPI 3's `content`, or Swagger 2's `produces` when it has a `schema`. */
function documentedMedia(context: OperationContext, response: Located): DocumentedMedia {
  return readOnce(mediaOf, response, () => readDocumentedMedia(context, response));
}

function readDocumentedMedia(context: OperationContext, response: Located): DocumentedMedia {
  const { document } = context.contract;
  if (context.contract.dialect === 'swagger2') {
    if (!isRecord(response.value) || response.value.schema === undefined) return [];
    const produces = (context.operation.value as Record<string, unknown>).produces ?? document.produces;
    const types = Array.isArray(produces) && produces.length > 0 ? produces.map(String) : ['application/json'];
    return types.map((type) => ({ type, schemaPointer: `${response.pointer}/schema` }));
  }
  const content = child(document, response, 'content');
  if (!isRecord(content.value)) return [];
  return Object.keys(content.value).map((type) => {
    const media = child(document, content, type);
    return { type, schemaPointer: isRecord(media.value) && media.value.schema !== undefined ? `${media.pointer}/schema` : undefined };
  });
}

/** The documented media type a content type falls under: itself, `type/*`, or `*\/*`. */
function mediaFor(type: string, media: ReturnType<typeof documentedMedia>) {
  const base = (documented: string) => documented.split(';')[0]!.trim().toLowerCase();
  return media.find((m) => base(m.type) === type) ?? media.find((m) => base(m.type) === `${type.split('/')[0]}/*`) ?? media.find((m) => base(m.type) === '*/*');
}

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json') || type.endsWith('/json');

const requiredHeadersOf = new WeakMap<Located, string[]>();

/** The headers a documented response requires, as written (`Content-Type` aside: OpenAPI ignores it, the media type says it). */
function requiredHeaders(document: Record<string, unknown>, response: Located): string[] {
  return readOnce(requiredHeadersOf, response, () => {
    const headers = child(document, response, 'headers');
    if (!isRecord(headers.value)) return [];
    return Object.keys(headers.value).filter((name) => {
      const header = child(document, headers, name);
      return isRecord(header.value) && header.value.required === true && name.toLowerCase() !== 'content-type';
    });
  });
}

function checkHeaders(context: OperationContext, response: Located, mock: MockResponse, field: string, code: string): Finding[] {
  const required = requiredHeaders(context.contract.document, response);
  if (required.length === 0) return [];
  const given = new Set(Object.keys(mock.headers ?? {}).map((name) => name.toLowerCase()));
  return required.filter((name) => !given.has(name.toLowerCase())).map((name) => ({ field: `${field}.headers${fieldKey(name)}`, message: `missing: the ${code} response of ${operationLabel(context)} requires this header` }));
}

function checkBody(context: OperationContext, response: Located, mock: MockResponse, field: string, code: string): Finding[] {
  const sent = bodyOf(mock);
  if (sent === undefined) return [];
  const media = documentedMedia(context, response);
  const bodyField = `${field}.${sent.field}`;
  if (media.length === 0) return [{ field: bodyField, message: `expected no body: the ${code} response of ${operationLabel(context)} documents none` }];
  const documented = mediaFor(sent.type, media);
  if (documented === undefined) {
    const how = sent.typeIsSet ? '' : ` (sent as ${sent.type} by default: set headers.content-type)`;
    return [{ field: sent.typeIsSet ? `${field}.headers["content-type"]` : bodyField, message: `expected a documented content type (${media.map((m) => m.type).join(', ')}), got ${sent.type}${how}` }];
  }
  // Binary bodies and streams are checked by their content type only.
  if (sent.field !== 'body' || documented.schemaPointer === undefined || !isJson(sent.type)) return [];
  let value = sent.value;
  if (typeof value === 'string') {
    if (EXACT_TEMPLATE.test(value.trim())) return [];
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return [{ field: bodyField, message: `expected JSON (${sent.type}), got text that does not parse as JSON` }];
    }
  }
  let errors;
  try {
    errors = context.validators.validate(documented.schemaPointer, value);
  } catch (error) {
    return [{ field: bodyField, message: `not checked: the document's schema at #${documented.schemaPointer} does not compile (${(error as Error).message}); fix the document` }];
  }
  return explainSchemaErrors(errors, value).map((misfit) => ({ field: fieldPath(bodyField, misfit.pointer), message: misfit.message }));
}

/**
 * One mock response against the operation: its status is documented (exactly, by range, or
 * `default`), the response's required headers are there, its content type is documented, and a
 * JSON body fits the schema (templates fit any value of their place). `field` names the response
 * in the mock: `response`, `sequence.responses[2]`. A fault (`error`) answers nothing and is skipped.
 */
export function checkResponse(context: OperationContext, mock: MockResponse, field: string): Finding[] {
  if (mock.error !== undefined) return [];
  const status = mock.status ?? 200;
  const documented = documentedResponse(context, status);
  if ('codes' in documented) {
    return [{ field: `${field}.status`, message: `expected a status ${operationLabel(context)} documents (${documented.codes.join(', ') || 'none'}), got ${status}` }];
  }
  return [...checkHeaders(context, documented.response, mock, field, documented.code), ...checkBody(context, documented.response, mock, field, documented.code)];
}
