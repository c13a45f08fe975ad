import { expect, test } from 'vitest';
import { routedUrls } from './route-browser-calls.js';

const url = (href: string) => new URL(href);

test('harnessBrowser: true routes every http(s) origin but the app\'s', () => {
  const routed = routedUrls(true, 'http://127.0.0.1:3000/shop');
  expect(routed(url('https://maps.example.test/v1/geocode'))).toBe(true);
  expect(routed(url('http://127.0.0.1:3001/other-app'))).toBe(true);
  expect(routed(url('http://127.0.0.1:3000/api/me'))).toBe(false);
  expect(routed(url('data:text/plain,hi'))).toBe(false);
  expect(routed(url('ws://maps.example.test/live'))).toBe(false);
});

test('harnessBrowser: { origins } routes those origins only, whatever path they were written with', () => {
  const routed = routedUrls({ origins: ['https://maps.example.test/', 'https://flags.example.test:8443/v1'] }, 'http://127.0.0.1:3000');
  expect(routed(url('https://maps.example.test/v1/geocode?q=Paris'))).toBe(true);
  expect(routed(url('https://flags.example.test:8443/v1/evaluate'))).toBe(true);
  expect(routed(url('https://flags.example.test/v1/evaluate'))).toBe(false);
  expect(routed(url('https://cdn.example.test/lib.js'))).toBe(false);
});

test('a setting it cannot use throws saying what to write', () => {
  expect(() => routedUrls(true, undefined)).toThrow(/no baseURL, so the app's own origin is unknown.*Set use.baseURL/);
  expect(() => routedUrls({ origins: ['maps.example.test'] }, 'http://127.0.0.1:3000')).toThrow(/origins to be an origin such as 'https:\/\/maps.example.test', instead got "maps.example.test"/);
  expect(() => routedUrls({ hosts: [] } as never, 'http://127.0.0.1:3000')).toThrow(/Expected use.harnessBrowser to be true, false or \{ origins/);
});
