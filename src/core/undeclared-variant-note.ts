import { quote, quoteList } from './dev-utils.js';
import { didYouMean } from './did-you-mean.js';

/**
 * Why a switch to a variant the scenario does not declare changes nothing, and the declared
 * variant the user most likely meant. SPEC §2 has the switch accept and echo any variant, so
 * this is a warning (logged, and `warning` in the 200 answer), never a refusal.
 *
 * @example
 * undeclaredVariantNote('premium', 'gld', ['gold']);
 * // 'Scenario "premium" declares no variant "gld", so it adds no mocks. Did you mean "gold"? Declared variants: "gold".'
 */
export function undeclaredVariantNote(scenarioId: string, variant: string, declared: readonly string[]): string {
  const near = didYouMean(variant, declared);
  return `Scenario ${quote(scenarioId)} declares no variant ${quote(variant)}, so it adds no mocks.${near === undefined ? '' : ` Did you mean ${quote(near)}?`} Declared variants: ${quoteList(declared)}.`;
}
