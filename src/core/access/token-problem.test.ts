import { expect, test } from 'vitest';
import { tokenProblem } from './token-problem.js';

test('a random hex or base64 token of 16 characters or more is fine', () => {
  expect(tokenProblem('0123456789abcdef', { minLength: 16 })).toBeUndefined();
  expect(tokenProblem('q83vEjRWeJq83vEjRWeJ+/==', { minLength: 16 })).toBeUndefined();
});

test('says why a token cannot be used', () => {
  expect(tokenProblem(undefined, { minLength: 16 })).toBe('expected a string, instead got undefined');
  expect(tokenProblem('', { minLength: 16 })).toBe('it is empty');
  expect(tokenProblem('short', { minLength: 16 })).toMatch(/^it has 5 characters, and a token shorter than 16 can be guessed/);
  expect(tokenProblem('short', { minLength: 1 })).toBeUndefined();
  expect(tokenProblem('a'.repeat(1025), { minLength: 16 })).toMatch(/over the limit of 1024/);
  for (const bad of ['with space 123456', 'comma,0123456789abc', 'quote"0123456789abc', 'ünïcode0123456789ab', '=0123456789abcdefg']) {
    expect(tokenProblem(bad, { minLength: 16 }), bad).toMatch(/characters a bearer token cannot carry/);
  }
});
