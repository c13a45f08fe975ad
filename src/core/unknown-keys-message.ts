import { didYouMean } from './did-you-mean.js';
import { quote, quoteList } from './dev-utils.js';

/**
 * What to say about keys an object may not have, with the nearest allowed key for each:
 * `unknown key "respnse" (did you mean "response"?); allowed keys: "method", "url", …`.
 * Used for scenario definitions and for the body of a switch request.
 */
export function unknownKeysMessage(keys: readonly string[], allowed: readonly string[]): string {
  const named = keys.map((key) => {
    const near = didYouMean(key, allowed);
    return near === undefined ? quote(key) : `${quote(key)} (did you mean ${quote(near)}?)`;
  });
  return `unknown ${keys.length === 1 ? 'key' : 'keys'} ${named.join(', ')}; allowed keys: ${quoteList(allowed)}`;
}
