import { HarnessError } from '../core/errors.js';
import type { ScenarioMap } from '../core/types.js';
import type { ScenarioFile } from './load-scenario-file.js';

/**
 * One scenario map from several files. A scenario ID defined in two files is an error naming
 * both: which one should win is not ours to guess.
 */
export function mergeScenarioFiles(files: readonly ScenarioFile[]): ScenarioMap {
  const merged: ScenarioMap = {};
  const origin = new Map<string, string>();
  const clashes: string[] = [];
  for (const { path, scenarios } of files) {
    for (const [id, definition] of Object.entries(scenarios)) {
      const first = origin.get(id);
      if (first !== undefined) {
        clashes.push(`scenario ${JSON.stringify(id)} is defined in both ${first} and ${path}`);
        continue;
      }
      origin.set(id, path);
      // defineProperty: an ID such as `__proto__` stays an ordinary key.
      Object.defineProperty(merged, id, { value: definition, enumerable: true, writable: true, configurable: true });
    }
  }
  if (clashes.length > 0) {
    throw new HarnessError(
      'INVALID_SCENARIOS',
      `Failed to load scenario files: the same scenario ID in more than one file:\n${clashes.map((line) => `  - ${line}`).join('\n')}\nRename one of each pair: scenario IDs must be unique across the files loaded together.`,
    );
  }
  return merged;
}
