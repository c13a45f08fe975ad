import type { TestState } from '../store/session-store.js';
import { DefinitionError } from './definition-error.js';

/** What templates in a response or in `setState` can read. */
export interface TemplateContext {
  params: Readonly<Record<string, string>>;
  url: URL;
  headers: Headers;
  /** The parsed body (JSON, form or multipart fields, else the text); read only when a template needs it. */
  body: unknown;
  state: TestState;
  variant: string | undefined;
}

/** A value from a mock definition, with its templates compiled. */
export interface CompiledValue {
  /** True when evaluating reads the request body, so the caller parses it first. */
  readsBody: boolean;
  /** The template expressions it reads (`headers.authorization`, `state.cart`): what its value can carry. */
  reads: readonly string[];
  evaluate(context: TemplateContext): unknown;
}

type Lookup = (context: TemplateContext) => unknown;

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const EXACT_TEMPLATE = /^\{\{\s*([^{}]*?)\s*\}\}$/;
const SOURCES = ['params', 'query', 'headers', 'body', 'state', 'variant'] as const;
/** An HTTP field name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Walk own properties only, so `__proto__` or `constructor` in a path reads nothing inherited. */
function walk(value: unknown, segments: readonly string[], from = 0): unknown {
  let current = value;
  for (let i = from; i < segments.length; i++) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segments[i]!)) return undefined;
    current = (current as Record<string, unknown>)[segments[i]!];
  }
  return current;
}

/**
 * `state.cart.total` reads the key `cart.total` when it exists (keys may contain dots), else
 * `cart` and then its `total`: the longest key that exists wins.
 */
function readState(state: TestState, segments: readonly string[]): unknown {
  for (let end = segments.length; end > 0; end--) {
    const key = segments.slice(0, end).join('.');
    if (Object.hasOwn(state, key)) return walk(state[key], segments, end);
  }
  return undefined;
}

function compileLookup(expression: string, field: string): { lookup: Lookup; readsBody: boolean } {
  const [source, ...segments] = expression.split('.');
  const rest = segments.join('.');
  switch (source as (typeof SOURCES)[number]) {
    case 'params':
      return { readsBody: false, lookup: (c) => (segments.length === 0 ? c.params : walk(c.params, segments)) };
    case 'query':
      return { readsBody: false, lookup: (c) => (segments.length === 0 ? Object.fromEntries(c.url.searchParams) : (c.url.searchParams.get(rest) ?? undefined)) };
    case 'headers':
      // Headers.get throws on a name that is not an HTTP token: refuse it here, not on every call.
      if (segments.length > 0 && !HEADER_NAME.test(rest)) {
        throw new DefinitionError(field, `has the template {{${expression}}}, and ${JSON.stringify(rest)} is not a valid header name`);
      }
      return { readsBody: false, lookup: (c) => (segments.length === 0 ? Object.fromEntries(c.headers) : (c.headers.get(rest) ?? undefined)) };
    case 'body':
      return { readsBody: true, lookup: (c) => walk(c.body, segments) };
    case 'state':
      return { readsBody: false, lookup: (c) => (segments.length === 0 ? c.state : readState(c.state, segments)) };
    case 'variant':
      if (segments.length > 0) break;
      return { readsBody: false, lookup: (c) => c.variant };
  }
  throw new DefinitionError(
    field,
    `has the template {{${expression}}}, which reads nothing: start it with one of ${SOURCES.join(', ')} (for example {{params.id}} or {{state.cart.total}})`,
  );
}

function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function compileString(text: string, field: string): CompiledValue | undefined {
  if (!text.includes('{{')) return undefined;
  const exact = EXACT_TEMPLATE.exec(text);
  if (exact !== null) {
    // A string that is exactly one template keeps the value's type (number, array, object).
    const { lookup, readsBody } = compileLookup(exact[1]!, field);
    return { readsBody, reads: [exact[1]!], evaluate: lookup };
  }
  const pieces: (string | Lookup)[] = [];
  const reads: string[] = [];
  let readsBody = false;
  let last = 0;
  for (const found of text.matchAll(TEMPLATE)) {
    pieces.push(text.slice(last, found.index));
    const compiled = compileLookup(found[1]!, field);
    readsBody ||= compiled.readsBody;
    reads.push(found[1]!);
    pieces.push(compiled.lookup);
    last = found.index + found[0].length;
  }
  if (pieces.length === 0) return undefined;
  pieces.push(text.slice(last));
  return {
    readsBody,
    reads,
    evaluate: (context) => {
      let out = '';
      for (const piece of pieces) out += typeof piece === 'string' ? piece : toText(piece(context));
      return out;
    },
  };
}

const constants = new WeakSet<CompiledValue>();

/** A value with no templates inside: evaluates to itself, with no copying. */
/** A value sent as it is, `{{` and all: no template is read in it (a recorded chunk's text). */
export function constant(value: unknown): CompiledValue {
  const compiled: CompiledValue = { readsBody: false, reads: [], evaluate: () => value };
  constants.add(compiled);
  return compiled;
}

/** True when `value` has no template inside: it evaluates to the same value for every call. */
export function isConstant(value: CompiledValue): boolean {
  return constants.has(value);
}

/**
 * Compile every template in a definition value (strings anywhere inside objects and arrays).
 * `field` names the value in errors (`response.body.user`).
 */
export function compileTemplate(value: unknown, field: string): CompiledValue {
  if (typeof value === 'string') return compileString(value, field) ?? constant(value);
  if (Array.isArray(value)) {
    const items = value.map((item, i) => compileTemplate(item, `${field}[${i}]`));
    if (items.every((item) => constants.has(item))) return constant(value);
    return { readsBody: items.some((item) => item.readsBody), reads: items.flatMap((item) => item.reads), evaluate: (c) => items.map((item) => item.evaluate(c)) };
  }
  if (typeof value === 'object' && value !== null && !(value instanceof RegExp)) {
    const entries = Object.entries(value).map(([key, item]) => [key, compileTemplate(item, `${field}.${key}`)] as const);
    if (entries.every(([, item]) => constants.has(item))) return constant(value);
    return {
      readsBody: entries.some(([, item]) => item.readsBody),
      reads: entries.flatMap(([, item]) => item.reads),
      evaluate: (c) => {
        // defineProperty, so a key named "__proto__" stays an own key of the result.
        const out: Record<string, unknown> = {};
        for (const [key, item] of entries) {
          Object.defineProperty(out, key, { value: item.evaluate(c), enumerable: true, writable: true, configurable: true });
        }
        return out;
      },
    };
  }
  return constant(value);
}
