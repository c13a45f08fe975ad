import { expect, test } from 'vitest';
import { didYouMean } from './did-you-mean.js';

const MOCK_KEYS = ['method', 'url', 'match', 'response', 'sequence', 'afterResponse'];

test.each([
  ['respnse', MOCK_KEYS, 'response'],
  ['respose', MOCK_KEYS, 'response'],
  ['respnose', MOCK_KEYS, 'response'],
  ['sequnce', MOCK_KEYS, 'sequence'],
  ['afterRespone', MOCK_KEYS, 'afterResponse'],
  ['after_response', MOCK_KEYS, 'afterResponse'],
  ['bdy', ['body', 'query', 'headers', 'state'], 'body'],
  ['scenaro', ['scenario', 'variant'], 'scenario'],
  ['GithubDown', ['default', 'githubDown', 'githubSlow'], 'githubDown'],
  ['premum', ['default', 'premium'], 'premium'],
])('%s → %s', (input, candidates, expected) => {
  expect(didYouMean(input, candidates)).toBe(expected);
});

test('the same name in another case wins over a closer spelling', () => {
  expect(didYouMean('Gold', ['gola', 'gold'])).toBe('gold');
});

test('nothing is suggested when nothing is close', () => {
  expect(didYouMean('foo', MOCK_KEYS)).toBeUndefined();
  expect(didYouMean('x', ['y'])).toBeUndefined();
  expect(didYouMean('anything', [])).toBeUndefined();
  expect(didYouMean('x'.repeat(10_000), ['x'])).toBeUndefined();
});

test('the input itself is not a suggestion', () => {
  expect(didYouMean('response', ['response'])).toBeUndefined();
});
