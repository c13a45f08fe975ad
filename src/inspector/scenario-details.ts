import type { ScenarioMap, ScenarioSummary } from '../core/types.js';

/** A mock as the inspector shows it: its definition as JSON, named by its key (`checkout#0`, `checkout~slow#1`). */
export interface MockDetails {
  /** The name near misses and the journal summary use: `<scenario>#<index>` or `<scenario>~<variant>#<index>`. */
  key: string;
  [field: string]: unknown;
}

/** A catalogue entry with its mocks (`GET /__harness__/scenarios?mocks=true`). */
export interface ScenarioDetails extends ScenarioSummary {
  mocks: MockDetails[];
  /** Each declared variant's overlay mocks. */
  variantMocks: Record<string, MockDetails[]>;
}

const MAX_DEPTH = 32;

/** A definition value as JSON can carry it: a RegExp as `/source/flags`, a function as `[function]`. */
function toJsonSafe(value: unknown, depth = 0): unknown {
  if (value instanceof RegExp) return String(value);
  if (typeof value === 'function') return '[function]';
  if (typeof value === 'bigint') return String(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => toJsonSafe(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = toJsonSafe(item, depth + 1);
  return out;
}

/**
 * The catalogue with every scenario's mocks and variant overlays, JSON-safe, for the inspector.
 * Built once per harness, on first use: definitions are fixed at creation.
 */
export function scenarioDetails(definitions: ScenarioMap, catalogue: readonly ScenarioSummary[]): ScenarioDetails[] {
  return catalogue.map((summary) => {
    const definition = definitions[summary.id]!;
    const describe = (mocks: readonly unknown[], keyPrefix: string) =>
      mocks.map((mock, i) => ({ key: `${keyPrefix}#${i}`, ...(toJsonSafe(mock) as Record<string, unknown>) }));
    const variantMocks: Record<string, MockDetails[]> = {};
    for (const name of summary.variants) variantMocks[name] = describe(definition.variants?.[name]?.mocks ?? [], `${summary.id}~${name}`);
    return { ...summary, variants: [...summary.variants], mocks: describe(definition.mocks, summary.id), variantMocks };
  });
}
