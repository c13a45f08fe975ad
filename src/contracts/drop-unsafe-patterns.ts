import { regexRisk } from '../core/engine/find-unsafe-regexes.js';
import { isRecord, pointerSegment, type Json } from './json-pointer.js';

/** Keys whose values are data (examples, defaults, enums), never compiled: a `pattern` there is a value. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'const', 'enum']);

/** `/components/schemas/Slug/pattern`: a JSON pointer. */
const pointerOf = (segments: readonly string[]) => segments.map((segment) => `/${pointerSegment(segment)}`).join('');

/** The regex the validator builds from a pattern (ajv with `unicodeRegExp: false`), or `undefined` when it is not one (the validator reports that). */
function regexOf(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern);
  } catch {
    return undefined;
  }
}

/**
 * Remove from a document (in place) every regular expression the validator would run that
 * could backtrack catastrophically (issue 37, item 6: `^([a-z0-9]+-?)+$` held the app for
 * seconds on a 28-letter slug and a `!`), by the rules of a scenario's serialised matchers: a
 * `pattern` of a schema (a Swagger 2 parameter's too) and a key of `patternProperties`. Values
 * are then not checked against it, and the returned warnings say so, one per place in the
 * document's order, named by its JSON pointer. Examples, defaults and enums are data and are left alone; an object the document
 * uses in several places (a YAML alias) is looked at once.
 * @note Checked, not run in another engine: a linear-time engine (RE2) is a native package, and
 * a document's patterns are known when it loads, so the check costs nothing per call.
 */
export function dropUnsafePatterns(document: Json): string[] {
  const warnings: string[] = [];
  const seen = new WeakSet<object>();
  const stack: { node: unknown; at: string[] }[] = [{ node: document, at: [] }];
  const refuse = (at: string[], pattern: string): boolean => {
    const regex = regexOf(pattern);
    const risk = regex === undefined ? undefined : regexRisk(regex);
    if (risk === undefined) return false;
    warnings.push(`#${pointerOf(at)}: the pattern ${regex} ${risk}, so values are not checked against it. Fix it in the document (anchor it with ^, no nested quantifiers such as (a+)+, [^-]+ rather than .+ before a "-") to have them checked.`);
    return true;
  };
  while (stack.length > 0) {
    const { node, at } = stack.pop()!;
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    // Pushed last first, so they come off the stack in the document's order.
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], at: [...at, String(i)] });
      continue;
    }
    const object = node as Json;
    if (typeof object.pattern === 'string' && refuse([...at, 'pattern'], object.pattern)) delete object.pattern;
    if (isRecord(object.patternProperties)) {
      for (const key of Object.keys(object.patternProperties)) {
        if (refuse([...at, 'patternProperties', key], key)) delete object.patternProperties[key];
      }
    }
    for (const [key, value] of Object.entries(object).reverse()) {
      if (!DATA_KEYWORDS.has(key)) stack.push({ node: value, at: [...at, key] });
    }
  }
  return warnings;
}
