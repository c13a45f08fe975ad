import { expect, test } from 'vitest';
import { parseContentType } from './parse-content-type.js';

test('reads the media type in lower case and the charset without quotes', () => {
  expect(parseContentType('Application/X-WWW-Form-URLEncoded; Charset="UTF-8"')).toEqual({ mediaType: 'application/x-www-form-urlencoded', charset: 'utf-8' });
  expect(parseContentType('multipart/form-data; boundary=abc; charset=ISO-8859-1')).toEqual({ mediaType: 'multipart/form-data', charset: 'iso-8859-1' });
  expect(parseContentType('application/json')).toEqual({ mediaType: 'application/json', charset: undefined });
});

test('a missing or sloppy header still gives an answer', () => {
  expect(parseContentType(null)).toEqual({ mediaType: '', charset: undefined });
  expect(parseContentType('')).toEqual({ mediaType: '', charset: undefined });
  expect(parseContentType(' text/plain ;charset=')).toEqual({ mediaType: 'text/plain', charset: undefined });
  expect(parseContentType('text/plain;;')).toEqual({ mediaType: 'text/plain', charset: undefined });
});
