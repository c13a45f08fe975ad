import type { LlmChunking } from '../../types.js';

/** A word with the whitespace before it, as models send deltas (`"Hello"`, `" world"`). */
const WORD = /\s*\S+/g;

/** Cut a string into pieces of at most `size` code points (never inside a surrogate pair). */
function byChars(text: string, size: number): string[] {
  const points = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += size) pieces.push(points.slice(i, i + size).join(''));
  return pieces;
}

/**
 * Cut streamed text into deltas, the same way for every call (no randomness): `'word'` gives
 * each word with the space before it; `'token'` cuts those words into pieces of at most four
 * characters (about one model token: a stream of many small deltas, as providers send);
 * `{ chars }` gives pieces of that many characters. Joined again, the pieces are `text` exactly:
 * whitespace after the last word goes with it.
 */
export function splitText(text: string, chunking: LlmChunking): string[] {
  if (text === '') return [];
  if (typeof chunking === 'object') return byChars(text, chunking.chars);
  const words = text.match(WORD);
  if (words === null) return [text]; // whitespace only
  const joined = words.join('');
  if (joined.length < text.length) words[words.length - 1] += text.slice(joined.length);
  return chunking === 'word' ? words : words.flatMap((word) => byChars(word, 4));
}
