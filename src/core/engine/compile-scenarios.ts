import { HarnessError } from '../errors.js';
import { scenarioMapSchema } from '../scenario-schema.js';
import type { Mock } from '../types.js';
import { compileMock } from './compile-mock.js';
import { DefinitionError } from './definition-error.js';
import { createMockIndex, type MockIndex } from './mock-index.js';

/** A scenario ready to answer calls. */
export interface CompiledScenario {
  id: string;
  name: string;
  mocks: MockIndex;
  variants: ReadonlyMap<string, MockIndex>;
}

/** `["premium", "variants", "gold", "mocks", 2, "url"]` → `variants.gold.mocks[2].url`. */
function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    out += typeof segment === 'number' ? `[${segment}]` : `${out === '' ? '' : '.'}${String(segment)}`;
  }
  return out;
}

function invalidScenarios(problems: string[]): HarnessError {
  const shown = problems.slice(0, 20).map((line) => `  - ${line}`);
  if (problems.length > shown.length) shown.push(`  - …and ${problems.length - shown.length} more`);
  return new HarnessError(
    'INVALID_SCENARIOS',
    `Invalid scenario definitions:\n${shown.join('\n')}\nFix these fields in the scenarios passed to createHarness (the mock format is in the README).`,
  );
}

/**
 * Validate a scenario map and compile every mock of every scenario and variant.
 * Throws one `HarnessError` (`INVALID_SCENARIOS`) that lists every problem with its scenario
 * ID, mock index and field.
 */
export function compileScenarios(scenarios: unknown): Map<string, CompiledScenario> {
  const parsed = scenarioMapSchema.safeParse(scenarios);
  if (!parsed.success) {
    throw invalidScenarios(
      parsed.error.issues.map((issue) => {
        const [scenarioId, ...field] = issue.path;
        return scenarioId === undefined
          ? `scenarios: ${issue.message}`
          : `scenario ${JSON.stringify(String(scenarioId))}${field.length ? `, ${formatFieldPath(field)}` : ''}: ${issue.message}`;
      }),
    );
  }

  const problems: string[] = [];
  const compiled = new Map<string, CompiledScenario>();
  const compileLayer = (scenarioId: string, mocks: readonly Mock[], keyPrefix: string, fieldPrefix: string): MockIndex =>
    createMockIndex(
      mocks.flatMap((mock, i) => {
        try {
          return [compileMock(mock, i, `${keyPrefix}#${i}`)];
        } catch (error) {
          if (!(error instanceof DefinitionError)) throw error;
          problems.push(`scenario ${JSON.stringify(scenarioId)}, ${fieldPrefix}[${i}].${error.field}: ${error.message}`);
          return [];
        }
      }),
    );

  for (const [id, definition] of Object.entries(parsed.data)) {
    const variants = new Map<string, MockIndex>();
    for (const [variant, { mocks }] of Object.entries(definition.variants ?? {})) {
      variants.set(variant, compileLayer(id, mocks as Mock[], `${id}~${variant}`, `variants.${variant}.mocks`));
    }
    compiled.set(id, { id, name: definition.name, mocks: compileLayer(id, definition.mocks as Mock[], id, 'mocks'), variants });
  }
  if (problems.length > 0) throw invalidScenarios(problems);
  return compiled;
}
