import { expect, test } from 'vitest';
import { redactUrl } from './redact-url.js';

test('the password of a Redis URL becomes ***, the user name, host, port and database stay', () => {
  expect(redactUrl('redis://app:s3cret@redis.internal:6379/0')).toBe('redis://app:***@redis.internal:6379/0');
  expect(redactUrl('rediss://:s3cret@127.0.0.1:6380')).toBe('rediss://:***@127.0.0.1:6380');
  expect(redactUrl('redis://default:p%40ss@[::1]:6379')).toBe('redis://default:***@[::1]:6379');
});

test('a URL without a password is shown as it is', () => {
  for (const url of ['redis://127.0.0.1:6379', 'redis://app@redis.internal:6379', 'redis://app:@host:6379', 'localhost:6379', '']) expect(redactUrl(url), url).toBe(url);
});

test('passwords the URL parser would not see as one are hidden too (unencoded @ # / ? in them)', () => {
  expect(redactUrl('redis://app:p@ss@host:6379')).toBe('redis://app:***@host:6379');
  expect(redactUrl('redis://app:12#ss@host:6379')).toBe('redis://app:***@host:6379');
  expect(redactUrl('redis://app:pa/ss?x@host:6379')).toBe('redis://app:***@host:6379');
});

test('mistyped URLs keep their secret hidden: another scheme, a missing colon or slash, no scheme at all', () => {
  expect(redactUrl('http://admin:s3cret@127.0.0.1:6379')).toBe('http://admin:***@127.0.0.1:6379');
  expect(redactUrl('redis//admin:s3cret@127.0.0.1:6379')).toBe('redis//admin:***@127.0.0.1:6379');
  expect(redactUrl('redis:/admin:s3cret@127.0.0.1:6379')).toBe('redis:/admin:***@127.0.0.1:6379');
  expect(redactUrl('admin:s3cret@127.0.0.1:6379')).toBe('admin:***@127.0.0.1:6379');
  expect(redactUrl(' redis://admin:s3cret@host')).toBe(' redis://admin:***@host');
  expect(redactUrl('admin:pa//ss@host:6379')).toBe('admin:***@host:6379');
  expect(redactUrl('//admin:s3cret@host:6379')).toBe('//admin:***@host:6379');
});
