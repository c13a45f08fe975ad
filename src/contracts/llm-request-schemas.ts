import type { LlmApi } from '../core/types.js';
import { isRecord, type Json } from './json-pointer.js';

/**
 * A schema an LLM request carries, and where in the request it is. `dialect: 'gemini'` is
 * Gemini's `Schema` (OpenAPI 3.0's subset: `type: 'OBJECT'`, `nullable`), read as JSON Schema by
 * `fromGeminiSchema`.
 */
export interface RequestSchema {
  schema: Json;
  /** `response_format.json_schema.schema`, `tools[0].function.parameters`. */
  source: string;
  dialect: 'json-schema' | 'gemini';
}

/**
 * What the answer's text must be: `'json'`, JSON that fits `schema` (when the request gave one);
 * `'enum'`, Gemini's `text/x.enum`: the text itself is one of the schema's values.
 */
export interface TextRule {
  kind: 'json' | 'enum';
  schema: RequestSchema | undefined;
  /** Where the request asks for it, for messages: `response_format`. */
  source: string;
}

/** The schemas of one LLM request an answer must fit. */
export interface RequestSchemas {
  /** `undefined`: the request asks for no structured text. */
  text: TextRule | undefined;
  /** Each tool the request offers, by name, with its parameters' schema when it has one (a built-in or free-form tool has none). */
  tools: Map<string, RequestSchema | undefined>;
}

/** A field of a JSON object, or `undefined`. */
function get(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

/** Gemini's REST body takes camelCase and proto's snake_case names alike (`responseSchema`, `response_schema`). */
function either(value: unknown, camel: string, snake: string): unknown {
  return get(value, camel) ?? get(value, snake);
}

function schemaAt(value: unknown, source: string, dialect: RequestSchema['dialect'] = 'json-schema'): RequestSchema | undefined {
  return isRecord(value) ? { schema: value, source, dialect } : undefined;
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** `json_object`: any JSON object. */
const ANY_OBJECT: Json = { type: 'object' };

/**
 * The structured-output request of OpenAI's two APIs and Anthropic's: `{ type: 'json_schema',
 * schema }` (Chat nests it: `json_schema: { schema }`) or `{ type: 'json_object' }`.
 */
function jsonFormat(format: unknown, source: string, schemaKey: string): TextRule | undefined {
  const type = get(format, 'type');
  if (type === 'json_object') return { kind: 'json', schema: { schema: ANY_OBJECT, source: `${source} (json_object)`, dialect: 'json-schema' }, source };
  if (type !== 'json_schema') return undefined;
  const path = schemaKey.split('.');
  const schema = path.reduce<unknown>((value, key) => get(value, key), format);
  return { kind: 'json', schema: schemaAt(schema, `${source}.${schemaKey}`), source };
}

function openaiChat(body: Json): RequestSchemas {
  const tools = new Map<string, RequestSchema | undefined>();
  listOf(body['tools']).forEach((tool, i) => {
    const type = get(tool, 'type');
    const declared = type === 'custom' ? get(tool, 'custom') : get(tool, 'function');
    const name = get(declared, 'name');
    if (typeof name === 'string') tools.set(name, type === 'custom' ? undefined : schemaAt(get(declared, 'parameters'), `tools[${i}].function.parameters`));
  });
  return { text: jsonFormat(body['response_format'], 'response_format', 'json_schema.schema'), tools };
}

function openaiResponses(body: Json): RequestSchemas {
  const tools = new Map<string, RequestSchema | undefined>();
  listOf(body['tools']).forEach((tool, i) => {
    const name = get(tool, 'name');
    if (typeof name === 'string') tools.set(name, get(tool, 'type') === 'function' ? schemaAt(get(tool, 'parameters'), `tools[${i}].parameters`) : undefined);
  });
  return { text: jsonFormat(get(body['text'], 'format'), 'text.format', 'schema'), tools };
}

function anthropicMessages(body: Json): RequestSchemas {
  const tools = new Map<string, RequestSchema | undefined>();
  listOf(body['tools']).forEach((tool, i) => {
    const name = get(tool, 'name');
    // Server tools (web_search, bash…) have a name and no input_schema.
    if (typeof name === 'string') tools.set(name, schemaAt(get(tool, 'input_schema'), `tools[${i}].input_schema`));
  });
  // output_config.format; output_format is the beta's older name for it.
  const config = get(body['output_config'], 'format');
  const text = config === undefined ? jsonFormat(body['output_format'], 'output_format', 'schema') : jsonFormat(config, 'output_config.format', 'schema');
  return { text, tools };
}

function gemini(body: Json): RequestSchemas {
  const tools = new Map<string, RequestSchema | undefined>();
  listOf(body['tools']).forEach((tool, i) => {
    const key = get(tool, 'functionDeclarations') === undefined ? 'function_declarations' : 'functionDeclarations';
    listOf(get(tool, key)).forEach((declaration, j) => {
      const name = get(declaration, 'name');
      if (typeof name !== 'string') return;
      const where = `tools[${i}].${key}[${j}]`;
      const json = either(declaration, 'parametersJsonSchema', 'parameters_json_schema');
      tools.set(name, json === undefined ? schemaAt(get(declaration, 'parameters'), `${where}.parameters`, 'gemini') : schemaAt(json, `${where}.parametersJsonSchema`));
    });
  });
  const config = either(body, 'generationConfig', 'generation_config');
  const mime = either(config, 'responseMimeType', 'response_mime_type');
  const json = either(config, 'responseJsonSchema', 'response_json_schema');
  const schema = json === undefined ? schemaAt(either(config, 'responseSchema', 'response_schema'), 'generationConfig.responseSchema', 'gemini') : schemaAt(json, 'generationConfig.responseJsonSchema');
  let text: TextRule | undefined;
  if (mime === 'text/x.enum' && schema !== undefined) text = { kind: 'enum', schema, source: 'generationConfig.responseMimeType (text/x.enum)' };
  else if (mime === 'application/json' || (mime === undefined && schema !== undefined)) text = { kind: 'json', schema, source: 'generationConfig.responseMimeType (application/json)' };
  return { text, tools };
}

const READERS: Record<LlmApi, (body: Json) => RequestSchemas> = { 'openai.chat': openaiChat, 'openai.responses': openaiResponses, 'anthropic.messages': anthropicMessages, gemini };

/** The schemas an LLM request sent, in its API's own fields. */
export function requestSchemas(api: LlmApi, body: Record<string, unknown> | undefined): RequestSchemas {
  return body === undefined ? { text: undefined, tools: new Map() } : READERS[api](body);
}

/** Gemini's integer fields are int64, which its JSON writes as strings (`minItems: '1'`). */
const COUNTS = new Set(['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']);

/**
 * Gemini's `Schema` as JSON Schema: upper-case types (`OBJECT`, `STRING`) in lower case,
 * `TYPE_UNSPECIFIED` as no type, `nullable: true` as `null` allowed, int64 counts as numbers,
 * its own keywords (`propertyOrdering`, `format: 'enum'`, `example`) left out. The rest
 * (`properties`, `required`, `items`, `enum`, `anyOf`, `minimum`, `format`…) means the same.
 */
export function fromGeminiSchema(schema: unknown): unknown {
  if (!isRecord(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type') {
      if (typeof value === 'string' && value !== 'TYPE_UNSPECIFIED') out['type'] = value.toLowerCase();
    } else if (key === 'properties' && isRecord(value)) {
      out['properties'] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, fromGeminiSchema(property)]));
    } else if (key === 'items') {
      out['items'] = fromGeminiSchema(value);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out['anyOf'] = value.map(fromGeminiSchema);
    } else if (COUNTS.has(key) && typeof value === 'string' && /^\d+$/.test(value)) {
      out[key] = Number(value);
    } else if (key !== 'nullable' && key !== 'propertyOrdering' && key !== 'example' && !(key === 'format' && value === 'enum')) {
      out[key] = value;
    }
  }
  if (schema['nullable'] === true) {
    if (typeof out['type'] === 'string') out['type'] = [out['type'], 'null'];
    if (Array.isArray(out['enum'])) out['enum'] = [...(out['enum'] as unknown[]), null];
    if (Array.isArray(out['anyOf'])) out['anyOf'] = [...(out['anyOf'] as unknown[]), { type: 'null' }];
  }
  return out;
}
