import { expect, test } from 'vitest';
import { crossSiteSource } from './cross-site-source.js';

const from = (secFetchSite: string | null, origin: string | null, host: string | null = 'localhost:3000') => crossSiteSource({ secFetchSite, origin, host });

test('Sec-Fetch-Site decides when a browser sends it: cross-site is refused, the app\'s own site and a typed URL are not', () => {
  expect(from('cross-site', 'http://evil.example')).toBe('the browser marked it Sec-Fetch-Site: cross-site (Origin: http://evil.example)');
  expect(from('Cross-Site', null)).toBe('the browser marked it Sec-Fetch-Site: cross-site');
  // A dev proxy that rewrites Host: the page's request is same-origin although Origin and Host differ.
  expect(from('same-origin', 'http://localhost:5173')).toBeUndefined();
  expect(from('same-site', 'http://localhost:5173')).toBeUndefined();
  expect(from('none', null)).toBeUndefined();
});

test('without Sec-Fetch-Site, an Origin other than the request\'s host is refused, and so is an opaque one', () => {
  expect(from(null, 'http://evil.example')).toBe('its Origin is http://evil.example, not this app (localhost:3000)');
  expect(from(null, 'http://localhost:5173')).toBe('its Origin is http://localhost:5173, not this app (localhost:3000)');
  expect(from(null, 'null')).toMatch(/^its Origin is "null"/);
  expect(from(null, 'not a url')).toBe('its Origin is not a url, not this app (localhost:3000)');
  expect(from(null, 'http://evil.example', null)).toBe('its Origin is http://evil.example, not this app (no Host)');
});

test('the app\'s own origin passes, default ports included, and so does a request with no Origin at all', () => {
  expect(from(null, 'http://localhost:3000')).toBeUndefined();
  expect(from(null, 'http://LOCALHOST:3000', 'localhost:3000')).toBeUndefined();
  expect(from(null, 'https://app.example', 'app.example')).toBeUndefined();
  expect(from(null, 'http://app.example', 'app.example:80')).toBeUndefined();
  expect(from(null, 'http://[::1]:3000', '[::1]:3000')).toBeUndefined();
  expect(from(null, null)).toBeUndefined();
  expect(from('something-new', null)).toBeUndefined();
});
