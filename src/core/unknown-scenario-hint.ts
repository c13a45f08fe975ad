import { quote, quoteList } from './dev-utils.js';
import { didYouMean } from './did-you-mean.js';

/** Up to this many registered IDs are listed in full; beyond it, the catalogue endpoint is named. */
const LISTED_IDS = 10;

/**
 * What to add after SPEC's `Scenario 'x' not found. Did you forget to register it?`: the
 * registered ID the user most likely meant (`GithubDown` → `githubDown`), and the registered
 * IDs when they are few, else where to list them.
 *
 * @example
 * unknownScenarioHint('GithubDown', ['default', 'githubDown'], '/__harness__/scenarios');
 * // 'Did you mean "githubDown"? Registered scenarios: "default", "githubDown".'
 */
export function unknownScenarioHint(scenarioId: string, registered: readonly string[], cataloguePath: string): string {
  const near = didYouMean(scenarioId, registered);
  const meant = near === undefined ? '' : `Did you mean ${quote(near)}? `;
  if (registered.length <= LISTED_IDS) return `${meant}Registered scenarios: ${quoteList(registered)}.`;
  return `${meant}${registered.length} scenarios are registered; GET ${cataloguePath} lists them.`;
}
