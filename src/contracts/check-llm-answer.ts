import type { ContractViolation } from '../core/contract-check.js';
import type { Logger } from '../core/dev-utils.js';
import type { LlmReplyAnswer } from '../core/interception/mock-reply.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { dropUnsafePatterns } from './drop-unsafe-patterns.js';
import { explainSchemaErrors } from './explain-schema-errors.js';
import { fieldKey, fieldPath } from './field-path.js';
import type { Json } from './json-pointer.js';
import { fromGeminiSchema, requestSchemas, type RequestSchema } from './llm-request-schemas.js';
import { createAjv } from './schema-validators.js';

/** Distinct schemas kept compiled; past this, the validator starts over (an app that builds a new schema per call must not grow it without end). */
const MAX_SCHEMAS = 500;

/** A schema compiled, or why it could not be. */
type Compiled = { validate: ValidateFunction } | { error: string };

/** Checks `llm` answers against the schemas their requests sent (`contracts.llm`). */
export interface LlmAnswerChecker {
  /** The answer's problems (none: `[]`); `undefined` when its request asks for no structured text, offers no tool and the answer calls none: nothing to check. */
  check(answer: LlmReplyAnswer): ContractViolation[] | undefined;
}

function describe(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}…` : value);
}

/** The schema as the validator takes it: a copy (the request body is the app's), with no `$schema`/`$id` of its own (each request's schema is compiled alone), Gemini's read as JSON Schema. */
function prepared(request: RequestSchema): Json {
  const copy = (request.dialect === 'gemini' ? fromGeminiSchema(request.schema) : structuredClone(request.schema)) as Json;
  delete copy['$schema'];
  delete copy['$id'];
  return copy;
}

/**
 * The contract checks of `llm` answers: the answer's text against the structured output the
 * request asks for, each tool call's name against the tools it offers and its arguments against
 * that tool's parameters. Each distinct schema is compiled once, on its first use; a `pattern`
 * that could backtrack catastrophically is left out of it, as documents' are, and `logger` says so once.
 */
export function createLlmAnswerChecker(logger?: Pick<Logger, 'warn'>): LlmAnswerChecker {
  let ajv = createAjv();
  const compiled = new Map<string, Compiled>();

  function compile(request: RequestSchema): Compiled {
    const key = `${request.dialect} ${JSON.stringify(request.schema)}`;
    let found = compiled.get(key);
    if (found !== undefined) return found;
    if (compiled.size >= MAX_SCHEMAS) {
      compiled.clear();
      ajv = createAjv();
    }
    const schema = prepared(request);
    for (const warning of dropUnsafePatterns(schema)) logger?.warn(`Contracts: the llm request's ${request.source}: ${warning}`);
    try {
      found = { validate: ajv.compile(schema) };
    } catch (error) {
      found = { error: (error as Error).message };
    }
    compiled.set(key, found);
    return found;
  }

  /** `value` against the request's schema: one line per misfit, `field: [lead]breaks the request's <source> at $.path: what`. */
  function misfits(field: string, request: RequestSchema, value: unknown, lead = ''): string[] {
    const found = compile(request);
    if ('error' in found) return [`${field}: not checked: the request's ${request.source} does not compile (${found.error}); fix the schema the app sends`];
    if (found.validate(value)) return [];
    return explainSchemaErrors([...(found.validate.errors ?? [])], value).map((misfit) => `${field}: ${lead}breaks the request's ${request.source} at ${fieldPath('$', misfit.pointer)}: ${misfit.message}`);
  }

  function checkText(answer: LlmReplyAnswer, rule: NonNullable<ReturnType<typeof requestSchemas>['text']>): string[] {
    const field = 'response.llm.text';
    if (rule.kind === 'enum') return misfits(field, rule.schema!, answer.text);
    let value: unknown;
    try {
      value = JSON.parse(answer.text);
    } catch (error) {
      return [`${field}: expected JSON, as the request's ${rule.source} asks, got ${answer.text === '' ? 'no text' : `the text ${describe(answer.text)}`} (${(error as Error).message})`];
    }
    return rule.schema === undefined ? [] : misfits(field, rule.schema, value);
  }

  function checkToolCall(call: LlmReplyAnswer['toolCalls'][number], index: number, tools: Map<string, RequestSchema | undefined>): string[] {
    const field = `response.llm.toolCalls${fieldKey(index)}`;
    if (!tools.has(call.name)) {
      const offered = [...tools.keys()];
      return [`${field}.name: ${JSON.stringify(call.name)} is not a tool the request offers (it offers ${offered.length === 0 ? 'none' : offered.map((name) => JSON.stringify(name)).join(', ')})`];
    }
    const schema = tools.get(call.name);
    if (schema === undefined) return [];
    let value: unknown;
    try {
      value = JSON.parse(call.arguments);
    } catch (error) {
      return [`${field}.arguments: expected JSON for tool call ${JSON.stringify(call.name)}, got ${describe(call.arguments)} (${(error as Error).message})`];
    }
    return misfits(`${field}.arguments`, schema, value, `tool call ${JSON.stringify(call.name)} `);
  }

  return {
    check(answer) {
      const schemas = requestSchemas(answer.api, answer.requestBody);
      if (schemas.text === undefined && schemas.tools.size === 0 && answer.toolCalls.length === 0) return undefined;
      // An answer that only calls tools has no text for the structured output to apply to.
      const textApplies = schemas.text !== undefined && !(answer.text === '' && answer.toolCalls.length > 0);
      const messages = [...(textApplies ? checkText(answer, schemas.text!) : []), ...answer.toolCalls.flatMap((call, i) => checkToolCall(call, i, schemas.tools))];
      return messages.map((message) => ({ message, operation: answer.api, source: 'llm' as const }));
    },
  };
}
