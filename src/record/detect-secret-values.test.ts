import { expect, test } from 'vitest';
import { detectSecretValues } from './detect-secret-values.js';

const jwt = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"1"}').toString('base64url')}.c2lnbmF0dXJlLWJ5dGVz`;

test.each([
  ['a JWT', `token ${jwt} expires`, jwt],
  ['a Stripe secret key', 'key: sk_live_51HxAbCdEf0123456789', 'sk_live_51HxAbCdEf0123456789'],
  ['a Stripe secret key', 'rk_test_51HxAbCdEf0123456789', 'rk_test_51HxAbCdEf0123456789'],
  ['a GitHub token', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a'],
  ['a GitHub token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz'],
  ['a Slack token', 'xoxb-1234567890-abcdefghijk', 'xoxb-1234567890-abcdefghijk'],
  ['an AWS access key ID', 'AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE'],
  ['a Google API key', 'AIzaSyA-1234567890abcdefghijklmnopqrstu', 'AIzaSyA-1234567890abcdefghijklmnopqrstu'],
  ['a GitLab token', 'glpat-abcdefghij0123456789', 'glpat-abcdefghij0123456789'],
  ['an npm token', 'npm_abcdefghijklmnopqrstuvwxyz0123456789', 'npm_abcdefghijklmnopqrstuvwxyz0123456789'],
  ['an OpenAI or Anthropic key', 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t', 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t'],
  ['a Slack webhook secret', 'https://hooks.slack.com/services/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', 'q8Lr2VbN5mWc7KxT1pZs4HdY'],
  ['a signed-URL parameter', '<Url>https://b.s3.amazonaws.com/k?X-Amz-Date=1&amp;X-Amz-Signature=7d3f0c9a1b2e</Url>', '7d3f0c9a1b2e'],
  ['a signed-URL parameter', 'https://acct.blob.core.windows.net/c/b?sv=2022&sig=abc%2Bdef%3D', 'abc%2Bdef%3D'],
  ['a Bearer or Basic credential', 'forwarded Bearer opaque-Tok3n-Zx81', 'opaque-Tok3n-Zx81'],
  ['a card number', '"4012 8888 8888 1881"', '4012 8888 8888 1881'],
  ['a card number', 'pan=378282246310005;', '378282246310005'],
])('%s: %s', (kind, text, value) => {
  expect(detectSecretValues(text)).toContainEqual(expect.objectContaining({ kind, value }));
});

test('a card number found with its spaces is also given without them, to find it written either way', () => {
  expect(detectSecretValues('4012 8888 8888 1881')).toEqual([{ value: '4012 8888 8888 1881', kind: 'a card number', bare: '4012888888881881' }]);
});

test('a lone high-entropy value is a secret; inside prose, or under a digest name, it is not', () => {
  const key = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8Lr2VbN5m';
  expect(detectSecretValues(key, { whole: true })).toEqual([{ value: key, kind: 'a high-entropy string' }]);
  expect(detectSecretValues(`the key ${key} is here`, { whole: true })).toEqual([]);
  expect(detectSecretValues(key)).toEqual([]);
  expect(detectSecretValues(key, { whole: true, name: 'x-amz-checksum-sha256' })).toEqual([]);
});

// The rule for ordinary values: ids, dates, hashes and words stay as they are (see the high-entropy rule's comment).
test.each([
  ['a UUID', '9c1e6d3a-1b2c-4d5e-8f90-a1b2c3d4e5f6'],
  ['an upper-case UUID', '9C1E6D3A-1B2C-4D5E-8F90-A1B2C3D4E5F6'],
  ['a Stripe id', 'pi_3PfixtureIntent0123456'],
  ['a publishable key', 'pk_live_51HxAbCdEf0123456789'],
  ['a git commit SHA', '6052f0d4a1c3e9b7f2d8a0c6e4b1f3d5a7c9e2b4'],
  ['a sha256 hex digest', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['an integrity hash', 'sha512-Q1WQ2rFMb3BU7vNe2Sho7fbB7gLD2n3aV0vH9sK5mG+5C6jM0mN1oZ4TfA7BqB3cC4dD5eE6fF7gG8hH9iI0jJ=='],
  ['an ISO date-time', '2024-06-20T10:00:00.000Z'],
  ['a Unix timestamp in milliseconds', '1718877600000'],
  ['a 19-digit snowflake id', '1234567890123456789'],
  ['a ULID', '01HZX3K9V6Q8R2T4W7Y0B5C1DE'],
  ['a camel-case identifier', 'AbstractSingletonProxyFactoryBean42xyz'],
  ['a base64 cursor of JSON', Buffer.from('{"id":12345,"created":"2024-06-20T10:00:00Z"}').toString('base64url')],
  ['a phone number', '+1 415-555-0100'],
  ['a decimal amount', '4111111111111111.50'],
  ['a token type', 'bearer'],
  ['prose about tokens', 'Use Bearer authentication with your API key'],
  ['a WWW-Authenticate challenge', 'Bearer realm="api", error="invalid_token"'],
  ['a URL with a fragment', 'https://docs.example.test/guide#section-2'],
  ['a slug that starts with sk-', 'sk-sk-default-locale-settings'],
])('%s stays: %s', (_name, text) => {
  expect(detectSecretValues(text, { whole: true })).toEqual([]);
});
