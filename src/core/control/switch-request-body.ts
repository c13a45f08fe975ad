import { z } from 'zod';
import { quoteList } from '../dev-utils.js';
import { unknownKeysMessage } from '../unknown-keys-message.js';

/**
 * The body of `POST /__scenario__` (SPEC §4.1). Other keys do not make a body invalid (SPEC
 * lists what does), but they are named: among the issues of an invalid body, and as a
 * warning beside a switch that succeeded (`{"scenario":"x","varient":"gold"}` lost its variant).
 */
export const switchRequestBodySchema = z.object({
  scenario: z.string().min(1),
  variant: z.string().optional(),
});

const SWITCH_KEYS = Object.keys(switchRequestBodySchema.shape);

export type SwitchRequestBody = z.infer<typeof switchRequestBodySchema>;

/** One entry of `details` in a 400 `Invalid request body` answer (SPEC §4.1). */
export interface ValidationIssue {
  code: string;
  expected: string;
  received: string;
  path: string[];
  message: string;
}

/** The type name of a JSON value, as `received` reports it. */
function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** The issue for a body that is not JSON at all. */
export function invalidJsonIssue(reason: string): ValidationIssue {
  return { code: 'invalid_json', expected: 'JSON object', received: 'malformed JSON', path: [], message: `Request body is not valid JSON: ${reason}` };
}

/** The keys of a JSON object body that a switch does not know. */
function unknownKeysOf(input: unknown): string[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return [];
  return Object.keys(input).filter((key) => !SWITCH_KEYS.includes(key));
}

/** One issue per unknown key, after SPEC's own issues, in SPEC's issue shape. */
function unknownKeyIssue(key: string): ValidationIssue {
  const message = unknownKeysMessage([key], SWITCH_KEYS);
  return {
    code: 'unrecognized_keys',
    expected: `one of ${quoteList(SWITCH_KEYS)}`,
    received: `key ${JSON.stringify(key)}`,
    path: [key],
    message: `${message.charAt(0).toUpperCase()}${message.slice(1)}`,
  };
}

/**
 * Validate a parsed body; on failure, the `details` SPEC §4.1 asks for (plus one issue per
 * unknown key); on success, the unknown keys that were ignored.
 */
export function parseSwitchRequestBody(
  input: unknown,
): { success: true; data: SwitchRequestBody; unknownKeys: string[] } | { success: false; issues: ValidationIssue[] } {
  const result = switchRequestBodySchema.safeParse(input);
  const unknownKeys = unknownKeysOf(input);
  if (result.success) return { success: true, data: result.data, unknownKeys };
  return { success: false, issues: [...specIssues(input, result.error.issues), ...unknownKeys.map(unknownKeyIssue)] };
}

/** zod's issues in SPEC's shape: `code`, `expected`, `received`, `path`, `message`. */
function specIssues(input: unknown, zodIssues: readonly z.core.$ZodIssue[]): ValidationIssue[] {
  // zod also checks the length of a value of the wrong type (`"scenario": []` is too short as
  // well as not a string); the type is the one problem worth reporting at that path.
  const wrongType = new Set(zodIssues.filter((issue) => issue.code === 'invalid_type').map((issue) => issue.path.join('\u0000')));
  return zodIssues
    .filter((issue) => issue.code === 'invalid_type' || !wrongType.has(issue.path.join('\u0000')))
    .map((issue) => {
      const received = valueAt(input, issue.path);
      const path = issue.path.map(String);
      if (issue.code === 'too_small') {
        const minimum = Number(issue.minimum);
        return {
          code: issue.code,
          expected: `${issue.origin} of length >= ${minimum}`,
          received: `${describeType(received)} of length ${typeof received === 'string' ? received.length : 0}`,
          path,
          message: issue.message,
        };
      }
      return {
        code: issue.code,
        expected: issue.code === 'invalid_type' ? issue.expected : 'valid value',
        received: describeType(received),
        path,
        message: issue.message,
      };
    });
}
