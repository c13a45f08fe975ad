import type { z } from 'zod';
import { HarnessError } from '../errors.js';
import { scenarioMapSchema } from '../scenario-schema.js';
import { unknownKeysMessage } from '../unknown-keys-message.js';
import type { Mock } from '../types.js';
import { compileMock } from './compile-mock.js';
import { DefinitionError } from './definition-error.js';
import { findUnsafeRegexes, type RegexJudge } from './find-unsafe-regexes.js';
import { createMockIndex, type MockIndex } from './mock-index.js';
import { compileSocketLayers } from './sockets/compile-socket-layers.js';
import type { CompiledSocket } from './sockets/compile-socket.js';

/** A scenario ready to answer calls. */
export interface CompiledScenario {
  id: string;
  name: string;
  mocks: MockIndex;
  variants: ReadonlyMap<string, MockIndex>;
  /** Its socket mocks (`sockets`), and each variant's. */
  sockets: readonly CompiledSocket[];
  variantSockets: ReadonlyMap<string, readonly CompiledSocket[]>;
}

/** `["premium", "variants", "gold", "mocks", 2, "url"]` → `variants.gold.mocks[2].url`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    out += typeof segment === 'number' ? `[${segment}]` : `${out === '' ? '' : '.'}${String(segment)}`;
  }
  return out;
}

/** One problem of a definition map: where (scenario ID first) and what. */
export interface Problem {
  path: readonly PropertyKey[];
  message: string;
  /** A key the object at `path` may not have: the place to point at is the key itself. */
  key?: string;
}

/** `match.query.q.regex` or `match.body.items[0].name` → `['match', 'query', 'q', 'regex']`. */
function splitField(field: string): PropertyKey[] {
  return [...field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map(([, key, index]) => (index === undefined ? key! : Number(index)));
}

function describeProblem({ path: [scenarioId, ...field], message }: Problem): string {
  return scenarioId === undefined
    ? `scenarios: ${message}`
    : `scenario ${JSON.stringify(String(scenarioId))}${field.length ? `, ${formatFieldPath(field)}` : ''}: ${message}`;
}

function invalidScenarios(problems: readonly Problem[], checkedBy: string, file: string | undefined, locate: LocateInFile | undefined): HarnessError {
  // A file's problems are all listed (the CLI's `validate` prints them); code shows the first 20.
  // In a file, the problems come in the file's order, each with its line and column.
  const located = problems.map((problem) => ({ at: locate?.(problem.path, problem.key), text: describeProblem(problem) }));
  if (locate !== undefined) located.sort((a, b) => (a.at?.line ?? Infinity) - (b.at?.line ?? Infinity) || (a.at?.column ?? 0) - (b.at?.column ?? 0));
  const lines = [...new Set(located.map(({ at, text }) => `${at === undefined ? '' : `line ${at.line}, column ${at.column}: `}${text}`))];
  const shown = lines.slice(0, file === undefined ? 20 : undefined).map((line) => `  - ${line}`);
  if (lines.length > shown.length) shown.push(`  - …and ${lines.length - shown.length} more`);
  return new HarnessError(
    'INVALID_SCENARIOS',
    file === undefined
      ? `Invalid scenario definitions:\n${shown.join('\n')}\nFix these fields in the scenarios passed to ${checkedBy} (the mock format: https://github.com/scenario-harness/scenario-harness/blob/main/docs/mock-format.md).`
      : `Invalid scenario definitions in ${file}:\n${shown.join('\n')}\nFix these fields in ${file} (the file format: https://github.com/scenario-harness/scenario-harness/blob/main/docs/scenario-files.md).`,
  );
}

/**
 * zod's message for a key a definition object may not have, replaced by one that names the
 * nearest allowed key (`respnse` → did you mean "response"?) and lists them all.
 * @note The issue carries the object schema that raised it (`inst`), whose shape holds the allowed keys.
 */
const definitionErrorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.code !== 'unrecognized_keys') return undefined;
  const shape = (issue.inst as { _zod?: { def?: { shape?: object } } } | undefined)?._zod?.def?.shape;
  return shape === undefined ? undefined : unknownKeysMessage(issue.keys, Object.keys(shape));
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `scenario/mocks/2` or `scenario/variants/gold/mocks/0`: which mock a schema issue is about. */
function mockKeyOf(path: readonly PropertyKey[]): string | undefined {
  const at = path[1] === 'mocks' ? 3 : path[1] === 'variants' && path[3] === 'mocks' ? 5 : -1;
  return at !== -1 && path.length >= at ? path.slice(0, at).map(String).join('/') : undefined;
}

/** Every mock of every scenario and variant in a (possibly invalid) map, with its location. */
function* eachLayer(scenarios: Record<string, unknown>) {
  for (const [id, definition] of Object.entries(scenarios)) {
    if (!isRecord(definition)) continue;
    if (Array.isArray(definition.mocks)) yield { id, mocks: definition.mocks as Mock[], keyPrefix: id, fieldPrefix: 'mocks', issuePrefix: `${id}/mocks` };
    for (const [variant, overlay] of Object.entries(isRecord(definition.variants) ? definition.variants : {})) {
      if (isRecord(overlay) && Array.isArray(overlay.mocks)) {
        yield { id, variant, mocks: overlay.mocks as Mock[], keyPrefix: `${id}~${variant}`, fieldPrefix: `variants.${variant}.mocks`, issuePrefix: `${id}/variants/${variant}/mocks` };
      }
    }
  }
}

export interface CompileScenariosOptions {
  /** Refuse regular expressions that could backtrack catastrophically (redos-detector). @default true */
  checkRegexes?: boolean;
  /** The call whose argument is checked, named in the error so the user knows where to look. @default 'createHarness()' */
  checkedBy?: string;
  /** The file the definitions come from, named in the error. @default the scenarios passed to createHarness */
  file?: string;
  /** Where a field (or a key of it) is written in `file`, so each problem names its line and column. */
  locate?: LocateInFile;
}

/** The place of the value at `path` (or of its key `key`) in a scenario file, 1-based, or `undefined`. */
export type LocateInFile = (path: readonly PropertyKey[], key?: string) => { line: number; column: number } | undefined;

/**
 * Validate a scenario map and compile every mock of every scenario and variant.
 * Throws one `HarnessError` (`INVALID_SCENARIOS`) that lists every problem with its scenario
 * ID, mock index and field: the schema's findings and the compiler's (URL patterns, regexes,
 * templates, regexes that could backtrack catastrophically) together.
 */
export function compileScenarios(scenarios: unknown, { checkRegexes = true, checkedBy = 'createHarness()', file, locate }: CompileScenariosOptions = {}): Map<string, CompiledScenario> {
  const { compiled, problems } = compileScenarioMap(scenarios, checkRegexes);
  if (problems.length > 0) throw invalidScenarios(problems, checkedBy, file, locate);
  return compiled;
}

/**
 * `compileScenarios` without throwing: the scenarios that compiled, and every problem found
 * (scenario ID first in each path). Per-test mocks use it to answer a 400 that names each field,
 * with a `judge` that has already checked their patterns (off the app's thread).
 */
export function compileScenarioMap(scenarios: unknown, checkRegexes: boolean, judge?: RegexJudge): { compiled: Map<string, CompiledScenario>; problems: Problem[] } {
  const parsed = scenarioMapSchema.safeParse(scenarios, { error: definitionErrorMap });
  const issues = parsed.success ? [] : parsed.error.issues;
  const problems: Problem[] = issues.map((issue) => ({
    path: issue.path,
    message: issue.message,
    ...(issue.code === 'unrecognized_keys' && issue.keys.length === 1 ? { key: issue.keys[0] } : {}),
  }));
  const mocksWithIssues = new Set(issues.map((issue) => mockKeyOf(issue.path)));

  const compiled = new Map<string, CompiledScenario>();
  // The definitions themselves, not zod's copy: that copy drops `__proto__` keys (see `record` in
  // scenario-schema.ts), and the schema transforms nothing, so they are otherwise the same.
  const source = isRecord(scenarios) ? scenarios : {};
  for (const layer of eachLayer(source)) {
    const layerPath = [layer.id, ...splitField(layer.fieldPrefix)];
    const mocks = layer.mocks.flatMap((mock, i) => {
      const at = (field: string) => [...layerPath, i, ...splitField(field)];
      // Every regex of the mock is checked even when the schema found other problems in it, so
      // one pass lists them all (a bad pattern no longer waits for the other fixes).
      let regexes: { field: string; message: string }[] = [];
      try {
        regexes = findUnsafeRegexes(mock, { backtracking: checkRegexes, judge });
      } catch {
        // A part of the wrong shape: the schema reports it.
      }
      for (const { field, message } of regexes) problems.push({ path: at(field), message });
      if (mocksWithIssues.has(`${layer.issuePrefix}/${i}`)) return [];
      try {
        const compiledMock = compileMock(mock, i, `${layer.keyPrefix}#${i}`, { scenarioId: layer.id, variant: layer.variant });
        return regexes.length === 0 ? [compiledMock] : [];
      } catch (error) {
        if (error instanceof DefinitionError) {
          const path = at(error.field);
          // An invalid pattern is found by both; it is listed once.
          if (!problems.some((problem) => problem.message === error.message && formatFieldPath(problem.path) === formatFieldPath(path))) problems.push({ path, message: error.message });
        } else if (parsed.success) {
          throw error;
        }
        // Else the schema stopped before this mock (a bad `__proto__` entry ends its record's
        // check), and the problems it did report come first.
        return [];
      }
    });
    const entry = compiled.get(layer.id) ?? emptyScenario(layer.id, source[layer.id]);
    if (layer.variant === undefined) entry.mocks = createMockIndex(mocks);
    else (entry.variants as Map<string, MockIndex>).set(layer.variant, createMockIndex(mocks));
    compiled.set(layer.id, entry);
  }
  compileSocketLayers(source, compiled, problems, { checkRegexes, judge, issueKeys: new Set(issues.map((issue) => issue.path.slice(0, issue.path[1] === 'variants' ? 5 : 3).map(String).join('/'))), empty: emptyScenario });
  return { compiled, problems };
}

/** A scenario with nothing compiled into it yet. */
function emptyScenario(id: string, definition: unknown): CompiledScenario {
  return { id, name: String((definition as { name?: unknown }).name), mocks: createMockIndex([]), variants: new Map(), sockets: [], variantSockets: new Map() };
}
