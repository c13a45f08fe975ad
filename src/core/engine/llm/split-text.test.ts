import { expect, test } from 'vitest';
import { splitText } from './split-text.js';

test('words keep the space before them, and the pieces join back to the text', () => {
  expect(splitText('Hello brave  new world. ', 'word')).toEqual(['Hello', ' brave', '  new', ' world. ']);
  expect(splitText(' lead', 'word')).toEqual([' lead']);
  expect(splitText('   ', 'word')).toEqual(['   ']);
  expect(splitText('', 'word')).toEqual([]);
});

test('tokens are words cut into pieces of at most four characters', () => {
  expect(splitText('Hello wonderful', 'token')).toEqual(['Hell', 'o', ' won', 'derf', 'ul']);
});

test('{ chars } cuts by code points, never inside an emoji', () => {
  expect(splitText('a😀bc', { chars: 2 })).toEqual(['a😀', 'bc']);
  const text = 'The quick brown fox';
  for (const chunking of ['word', 'token', { chars: 3 }] as const) expect(splitText(text, chunking).join('')).toBe(text);
});
