import { importLazily } from '../../import-lazily.js';
import type { ParsedBody } from './parse-request-body.js';

type QsParse = (typeof import('qs'))['parse'];

/** Bounds on what one form body may make us build; past them the body is refused, not truncated. */
export const FORM_LIMITS = {
  /** Most `key=value` pairs. Stripe's largest requests send a few hundred. */
  fields: 2000,
  /** Deepest bracket nesting (`a[b][c]` is 2). Stripe's deepest keys are 5. */
  depth: 12,
  /** Highest array index (`items[999]`), so `a[99999999]=1` cannot ask for a huge array. */
  arrayIndex: 1000,
} as const;

let qsParse: Promise<QsParse> | undefined;

/** qs, loaded on the first form body: apps that never send one never load it. */
function loadQs(): Promise<QsParse> {
  qsParse ??= importLazily(() => import('qs'), 'qs', (reason, remedy, cause) => new Error(`the form-body parser did not load: ${reason}. ${remedy}`, { cause })).then((qs) => qs.default.parse);
  return qsParse;
}

/**
 * A copy of qs's null-prototype result made of ordinary objects and arrays, so that it compares,
 * serialises and stores like a parsed JSON body (`match.state` compares prototypes too).
 * @note Keys go in with `defineProperty`: a key can never reach a prototype setter. qs itself
 * drops `__proto__` keys (`__proto__[x]=1`, `a[__proto__][x]=1`).
 */
function toPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlain);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    Object.defineProperty(out, key, { value: toPlain((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * An `application/x-www-form-urlencoded` body as nested fields, the way Stripe and qs write
 * them: `metadata[order_id]=7` → `{ metadata: { order_id: '7' } }`, `items[0][price]=p_1` →
 * `{ items: [{ price: 'p_1' }] }`, a repeated key → an array. `+` is a space; `%xx` is
 * decoded as UTF-8 (or ISO-8859-1 when the content type says so); a malformed escape stays as
 * written. Every value is a string.
 * @throws RangeError naming the limit when the body passes one of `FORM_LIMITS`.
 * @see https://github.com/ljharb/qs#parsing-objects
 */
export async function parseFormBody(text: string, charset: 'utf-8' | 'iso-8859-1' = 'utf-8'): Promise<ParsedBody> {
  const parse = await loadQs();
  let fields: unknown;
  try {
    fields = parse(text, {
      charset,
      depth: FORM_LIMITS.depth,
      strictDepth: true,
      parameterLimit: FORM_LIMITS.fields,
      arrayLimit: FORM_LIMITS.arrayIndex,
      throwOnLimitExceeded: true,
      // Null-prototype objects: `constructor=1` or `toString=x` are kept as fields, not dropped.
      plainObjects: true,
      allowPrototypes: true,
      // `a.b=1` is the key "a.b", as Stripe and HTML forms mean it.
      allowDots: false,
      ignoreQueryPrefix: false,
    });
  } catch (error) {
    throw new RangeError(`the form body is too large to read: ${limitReason(error)}`, { cause: error });
  }
  return { format: 'form', value: toPlain(fields) };
}

function limitReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/parameter limit/i.test(message)) return `it has more than ${FORM_LIMITS.fields} fields`;
  if (/depth/i.test(message)) return `a key nests deeper than ${FORM_LIMITS.depth} brackets`;
  if (/array limit/i.test(message)) return `an array index is above ${FORM_LIMITS.arrayIndex}`;
  return message;
}
