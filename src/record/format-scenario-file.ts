import type { ScenarioMap } from '../core/types.js';
import { findSecretsInText } from './find-secret-leaks.js';
import type { KnownSecret } from './secret-registry.js';
import { secretLeakError } from './secret-leak-error.js';

/** The two file formats `loadScenarios` reads. */
export type ScenarioFileFormat = 'json' | 'yaml';

/**
 * A scenario map as the text of a scenario file: JSON with two-space indentation, or YAML with
 * no line folding, ending in a newline. Keys keep the order the map has (the converter and the
 * importer build them in a stable order), so the same data always gives the same text.
 * With `secrets`, the text is checked for each one and refused (`SECRET_LEAK`) if it holds one.
 */
export async function formatScenarioFile(scenarios: ScenarioMap, format: ScenarioFileFormat, check?: { secrets: readonly KnownSecret[]; scenarioId: string }): Promise<string> {
  let text: string;
  if (format === 'yaml') {
    // Loaded here only, like the YAML reader: an app that never writes YAML never loads it.
    const { stringify } = await import('yaml');
    text = stringify(scenarios, { lineWidth: 0, aliasDuplicateObjects: false });
  } else {
    text = `${JSON.stringify(scenarios, null, 2)}\n`;
  }
  if (check !== undefined) {
    const leaks = findSecretsInText(text, check.secrets);
    if (leaks.length > 0) throw secretLeakError(check.scenarioId, leaks);
  }
  return text;
}
