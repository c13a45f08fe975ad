import type { StringMatch } from '../types.js';

const MAX = 60;

/** A received value for a near-miss line: JSON, cut short; `nothing` for a missing value. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text;
}

/** What a `StringMatch` wants, in words: `"gold"`, `/^t-\d+$/`, `starts with "sk_"`. */
export function describeStringMatch(match: StringMatch): string {
  if (typeof match === 'string') return describeValue(match);
  if (match instanceof RegExp) return String(match);
  if ('equals' in match) return describeValue(match.equals);
  if ('contains' in match) return `a text containing ${describeValue(match.contains)}`;
  if ('startsWith' in match) return `a text starting with ${describeValue(match.startsWith)}`;
  if ('endsWith' in match) return `a text ending with ${describeValue(match.endsWith)}`;
  return `/${match.regex.source}/${match.regex.flags ?? ''}`;
}

/** `field: expected X, received Y`, the one shape of every near-miss reason. */
export function mismatch(field: string, expected: string, received: unknown): string {
  return received === undefined ? `${field}: missing (expected ${expected})` : `${field}: expected ${expected}, received ${describeValue(received)}`;
}
