import type { ScenarioMap, ScenarioSummary } from '../types.js';

/** The catalogue entries, in registration order, built once: definitions are fixed at creation. */
export function catalogueOf(definitions: ScenarioMap, ids: Iterable<string>, variantsOf: (id: string) => Iterable<string>): readonly ScenarioSummary[] {
  return Object.freeze(
    [...ids].map((id) => {
      const { name, description } = definitions[id]!;
      return Object.freeze({ id, name, ...(description === undefined ? {} : { description }), variants: [...variantsOf(id)] });
    }),
  );
}
