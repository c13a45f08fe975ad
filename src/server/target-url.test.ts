import { expect, test } from 'vitest';
import { targetUrlOf } from './target-url.js';

test.each([
  ['/https/api.stripe.com/v1/charges?x=1', 'https://api.stripe.com/v1/charges?x=1'],
  ['/http/127.0.0.1:8080/a/b/', 'http://127.0.0.1:8080/a/b/'],
  ['/HTTPS/API.Stripe.com', 'https://api.stripe.com/'],
  ['/https/api.stripe.com?expand=a', 'https://api.stripe.com/?expand=a'],
  ['/https/api.x.test/users/a%20b', 'https://api.x.test/users/a%20b'],
])('host in the path: %s is answered as %s', (path, url) => {
  expect(targetUrlOf(path)?.href).toBe(url);
});

test.each(['/', '/v1/charges', '/ftp/x.com/a', '/https/', '/https//x', '/https/exa mple.com/x', 'https/api.x.test/a'])('%s names no upstream', (path) => {
  expect(targetUrlOf(path)).toBeUndefined();
});

test('on an upstream port the path belongs to that origin', () => {
  expect(targetUrlOf('/v1/charges?x=1', 'https://api.stripe.com')?.href).toBe('https://api.stripe.com/v1/charges?x=1');
  expect(targetUrlOf('/https/api.other.test/x', 'https://api.stripe.com')?.href).toBe('https://api.stripe.com/https/api.other.test/x');
});
