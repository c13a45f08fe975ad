import { expect, test } from 'vitest';
import { readBearerToken } from './read-bearer-token.js';

test('reads the token of a Bearer credential, the scheme in any case', () => {
  expect(readBearerToken('Bearer abc.DEF-1_~+/==')).toEqual({ token: 'abc.DEF-1_~+/==' });
  expect(readBearerToken('bearer abc')).toEqual({ token: 'abc' });
  expect(readBearerToken('BEARER   abc  ')).toEqual({ token: 'abc' });
});

test('says why a header carries no usable token', () => {
  expect(readBearerToken(null)).toEqual({ problem: 'missing' });
  expect(readBearerToken('')).toEqual({ problem: 'empty' });
  expect(readBearerToken('   ')).toEqual({ problem: 'empty' });
  expect(readBearerToken('Basic dXNlcjpwYXNz')).toEqual({ problem: 'scheme' });
  expect(readBearerToken('abc')).toEqual({ problem: 'scheme' });
  expect(readBearerToken('Bearerabc')).toEqual({ problem: 'scheme' });
  expect(readBearerToken('Bearer')).toEqual({ problem: 'no-token' });
  expect(readBearerToken('Bearer   ')).toEqual({ problem: 'no-token' });
});

test('a header sent twice (joined with a comma) is refused, whatever the two say', () => {
  expect(readBearerToken('Bearer a, Bearer a')).toEqual({ problem: 'repeated' });
  expect(readBearerToken('Bearer a,b')).toEqual({ problem: 'repeated' });
});

test('a header over 4096 characters is refused before it is read', () => {
  expect(readBearerToken(`Bearer ${'a'.repeat(4089)}`)).toEqual({ token: 'a'.repeat(4089) });
  expect(readBearerToken(`Bearer ${'a'.repeat(4090)}`)).toEqual({ problem: 'too-long' });
  expect(readBearerToken(`Bearer a, ${'a'.repeat(5_000_000)}`)).toEqual({ problem: 'too-long' });
});
