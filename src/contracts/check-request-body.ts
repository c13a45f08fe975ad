import type { ParsedBody } from '../core/engine/body/parse-request-body.js';
import { coerceFields } from './coerce-from-text.js';
import { explainSchemaErrors } from './explain-schema-errors.js';
import { fieldPath } from './field-path.js';
import { child, isRecord, type Located } from './json-pointer.js';
import { operationLabel, type Finding, type OperationContext } from './operation-context.js';
import { operationParameters } from './operation-parameters.js';
import { readOnce } from './read-once.js';

/** A call's body as the check sees it: parsed, absent, or too large to have been read. */
export type CallBody = ParsedBody | undefined | 'too-large';

/** What the operation accepts as a body: whether one is required, and its schema per documented media type. */
interface DocumentedBody {
  required: boolean;
  media: { type: string; schema: Located | undefined }[];
}

const bodiesOf = new WeakMap<Located, DocumentedBody | undefined>();

function documentedBody(context: OperationContext): DocumentedBody | undefined {
  return readOnce(bodiesOf, context.operation, () => readDocumentedBody(context));
}

function readDocumentedBody(context: OperationContext): DocumentedBody | undefined {
  const { document } = context.contract;
  if (context.contract.dialect === 'swagger2') {
    const body = operationParameters(context).find((parameter) => parameter.value.in === 'body');
    if (body === undefined) return undefined;
    const consumes = (context.operation.value as Record<string, unknown>).consumes ?? document.consumes;
    const types = Array.isArray(consumes) && consumes.length > 0 ? consumes.map(String) : ['application/json'];
    const schema = body.value.schema === undefined ? undefined : child(document, body, 'schema');
    return { required: body.value.required === true, media: types.map((type) => ({ type, schema })) };
  }
  const requestBody = child(document, context.operation, 'requestBody');
  if (!isRecord(requestBody.value)) return undefined;
  const content = child(document, requestBody, 'content');
  const media = Object.keys(isRecord(content.value) ? content.value : {}).map((type) => {
    const entry = child(document, content, type);
    return { type, schema: isRecord(entry.value) && entry.value.schema !== undefined ? child(document, entry, 'schema') : undefined };
  });
  return { required: requestBody.value.required === true, media };
}

const base = (type: string) => type.split(';')[0]!.trim().toLowerCase();

/** The documented media type a content type falls under: itself, `type/*`, or `*\/*`. */
function mediaFor(type: string, media: DocumentedBody['media']) {
  return media.find((m) => base(m.type) === type) ?? media.find((m) => base(m.type) === `${type.split('/')[0]}/*`) ?? media.find((m) => base(m.type) === '*/*');
}

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');

/**
 * The call's body against the operation's request body: there when required, of a documented
 * content type, and (JSON, or a form whose fields are read as their schema's types) fitting the
 * schema. Multipart and other bodies are checked by content type only. Swagger 2 `formData`
 * fields are parameters: `checkParameters` checks them.
 */
export function checkRequestBody(context: OperationContext, contentType: string | null, body: CallBody): Finding[] {
  const documented = documentedBody(context);
  if (body === undefined) return documented?.required === true ? [{ field: 'request.body', message: `missing: ${operationLabel(context)} requires a request body` }] : [];
  if (documented === undefined || documented.media.length === 0) return [];
  const type = base(contentType ?? 'application/octet-stream');
  const media = mediaFor(type, documented.media);
  if (media === undefined) return [{ field: 'request.headers["content-type"]', message: `expected a content type ${operationLabel(context)} accepts (${documented.media.map((m) => m.type).join(', ')}), got ${contentType ?? 'none'}` }];
  if (body === 'too-large' || media.schema === undefined) return [];
  let value: unknown;
  if (isJson(type)) {
    if (body.format !== 'json') return [{ field: 'request.body', message: `expected JSON (${type}), got text that does not parse as JSON` }];
    value = body.value;
  } else if (type === 'application/x-www-form-urlencoded' && body.format === 'form') {
    value = coerceFields(context.contract.document, media.schema, body.value);
  } else {
    return [];
  }
  const errors = context.validators.validate(media.schema.pointer, value);
  return explainSchemaErrors(errors, value).map((misfit) => ({ field: fieldPath('request.body', misfit.pointer), message: misfit.message }));
}
