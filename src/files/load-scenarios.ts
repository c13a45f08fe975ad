import { HarnessError } from '../core/errors.js';
import type { ScenarioMap } from '../core/types.js';
import { loadScenarioFile, type ScenarioFile } from './load-scenario-file.js';
import { mergeScenarioFiles } from './merge-scenario-files.js';

/**
 * Read scenario files (`.json`, `.yaml`, `.yml`; each a map of scenario ID → definition) and
 * return one scenario map for `createHarness`. Every file is validated the way definitions in
 * code are, and one `HarnessError` lists every problem with its file, scenario ID, mock index
 * and field. RegExps are written `{ "regex": { "source": "…", "flags": "i" } }`.
 *
 * @example
 * const scenarios = await loadScenarios('scenarios/stripe.yaml', 'scenarios/github.json');
 * const harness = createHarness({ enabled: process.env.HARNESS_ENABLED === 'true', scenarios });
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/scenario-files.md
 */
export async function loadScenarios(...paths: string[]): Promise<ScenarioMap> {
  if (paths.length === 0) throw new TypeError('Expected at least one scenario file path, instead got none. Pass the files: loadScenarios("scenarios/stripe.yaml").');
  const bad = paths.find((path) => typeof path !== 'string' || path === '');
  if (bad !== undefined) throw new TypeError(`Expected every scenario file path to be a non-empty string, instead got ${JSON.stringify(bad) ?? typeof bad}.`);
  return loadScenarioSet(paths, loadScenarioFile);
}

/**
 * Load every path with `loadOne` and merge the maps; every failure is reported at once, each
 * naming its file, and a scenario ID defined twice names both files.
 */
export async function loadScenarioSet(paths: readonly string[], loadOne: (path: string) => Promise<ScenarioFile>): Promise<ScenarioMap> {
  const results = await Promise.allSettled(paths.map((path) => loadOne(path)));
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) {
    const messages = failures.map((error) => (error as Error).message);
    throw new HarnessError('INVALID_SCENARIOS', `${failures.length} of ${paths.length} scenario files failed to load:\n\n${messages.join('\n\n')}`, { cause: failures[0] });
  }
  return mergeScenarioFiles(results.map((result) => (result as PromiseFulfilledResult<ScenarioFile>).value));
}
