import { DEFAULT_SCENARIO_ID } from '../constants.js';
import type { CompiledScenario } from './compile-scenarios.js';
import type { MockIndex } from './mock-index.js';

/** The mock layers a call is looked up in, first match wins: variant overlay → scenario → `default`. */
export type ScenarioLayers = (scenarioId: string | undefined, variant: string | undefined) => readonly MockIndex[];

const NO_LAYERS: readonly MockIndex[] = [];

/**
 * Every scenario's layers, and each declared variant's, built once at creation so that a call
 * allocates nothing to find them. An unknown scenario (or none) gets `default`'s alone.
 */
export function scenarioLayers(scenarios: ReadonlyMap<string, CompiledScenario>): { layersFor: ScenarioLayers; defaultLayers: readonly MockIndex[] } {
  const fallback = scenarios.get(DEFAULT_SCENARIO_ID);
  const defaultLayers: readonly MockIndex[] = fallback ? [fallback.mocks] : NO_LAYERS;
  const table = new Map<string, { base: readonly MockIndex[]; variants: ReadonlyMap<string, readonly MockIndex[]> }>();
  for (const scenario of scenarios.values()) {
    const base = scenario === fallback ? defaultLayers : [scenario.mocks, ...defaultLayers];
    const variants = new Map([...scenario.variants].map(([name, overlay]) => [name, [overlay, ...base]] as const));
    table.set(scenario.id, { base, variants });
  }
  function layersFor(scenarioId: string | undefined, variant: string | undefined): readonly MockIndex[] {
    const entry = table.get(scenarioId ?? DEFAULT_SCENARIO_ID);
    if (entry === undefined) return defaultLayers;
    return (variant === undefined ? undefined : entry.variants.get(variant)) ?? entry.base;
  }
  return { layersFor, defaultLayers };
}
